import type { Paise } from '@payout/domain';
import type { BankEntry } from './bank-statement.js';
import type { CAMT053_VERSIONS } from './camt053.js';
import type { RenderableStatement } from './render-mt940.js';

// ISO 20022 bank transaction codes (domain/family/sub-family) for what a payout account sees: an outgoing
// domestic credit transfer, a received one, a returned one, and account charges.
const CODES = {
  payout: ['PMNT', 'ICDT', 'DMCT'],
  received: ['PMNT', 'RCDT', 'DMCT'],
  returned: ['PMNT', 'ICDT', 'RRTN'],
  charge: ['ACMT', 'MDOP', 'CHRG'],
} as const;

// AddtlNtryInf is Max500Text in both versions.
const NARRATION_MAX = 500;

/**
 * Writes a statement as ISO 20022 camt.053 (docs/reconciliation-formats.md) in the element order of the
 * version's XSD: the account under `Acct/Id/Othr/Id`, `ElctrncSeqNb`, OPBD and CLBD balances, and one
 * `Ntry` per entry with its bank transaction code, `AcctSvcrRef` (the bank's reference), `Refs/EndToEndId`
 * (our reference), `Refs/ClrSysRef` (the UTR) and the narration in `AddtlNtryInf`. 001.08 wraps the
 * entry status in `<Cd>`. Throws on a value the layout cannot hold.
 */
export function renderCamt053(statement: RenderableStatement, version: keyof typeof CAMT053_VERSIONS): string {
  const created = `${statement.statementDate}T23:59:59`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`,
    '  <BkToCstmrStmt>',
    '    <GrpHdr>',
    `      <MsgId>${text(statement.id)}</MsgId>`,
    `      <CreDtTm>${created}</CreDtTm>`,
    '    </GrpHdr>',
    '    <Stmt>',
    `      <Id>${text(statement.id)}</Id>`,
    `      <ElctrncSeqNb>${statement.sequence}</ElctrncSeqNb>`,
    `      <CreDtTm>${created}</CreDtTm>`,
    '      <Acct>',
    `        <Id><Othr><Id>${text(statement.account)}</Id></Othr></Id>`,
    `        <Ccy>${statement.currency}</Ccy>`,
    '      </Acct>',
    ...balance('OPBD', statement.openingBalancePaise, statement),
    ...balance('CLBD', statement.closingBalancePaise, statement),
    ...statement.entries.flatMap((entry) => ntry(entry, statement.currency, version)),
    '    </Stmt>',
    '  </BkToCstmrStmt>',
    '</Document>',
  ];
  return lines.join('\n') + '\n';
}

function balance(code: 'OPBD' | 'CLBD', paise: Paise, statement: RenderableStatement): string[] {
  return [
    '      <Bal>',
    `        <Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>`,
    `        <Amt Ccy="${statement.currency}">${amount(paise < 0n ? -paise : paise)}</Amt>`,
    `        <CdtDbtInd>${paise < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd>`,
    `        <Dt><Dt>${statement.statementDate}</Dt></Dt>`,
    '      </Bal>',
  ];
}

function ntry(entry: RenderableStatement['entries'][number], currency: string, version: string): string[] {
  if (entry.narration.length > NARRATION_MAX) {
    throw new RangeError(`a camt.053 narration holds at most ${NARRATION_MAX} characters`);
  }
  const [domain, family, subFamily] = codesOf(entry);
  const refs = [
    entry.reference !== undefined && `<EndToEndId>${text(entry.reference)}</EndToEndId>`,
    entry.utr !== undefined && `<ClrSysRef>${text(entry.utr)}</ClrSysRef>`,
  ].filter((r) => r !== false);
  return [
    '      <Ntry>',
    `        <Amt Ccy="${currency}">${amount(entry.amountPaise)}</Amt>`,
    `        <CdtDbtInd>${entry.type === 'DEBIT' ? 'DBIT' : 'CRDT'}</CdtDbtInd>`,
    version === '02' ? '        <Sts>BOOK</Sts>' : '        <Sts><Cd>BOOK</Cd></Sts>',
    `        <BookgDt><Dt>${entry.valueDate}</Dt></BookgDt>`,
    `        <ValDt><Dt>${entry.valueDate}</Dt></ValDt>`,
    ...(entry.bankReference === undefined ? [] : [`        <AcctSvcrRef>${text(entry.bankReference)}</AcctSvcrRef>`]),
    `        <BkTxCd><Domn><Cd>${domain}</Cd><Fmly><Cd>${family}</Cd><SubFmlyCd>${subFamily}</SubFmlyCd></Fmly></Domn></BkTxCd>`,
    ...(refs.length === 0 ? [] : [`        <NtryDtls><TxDtls><Refs>${refs.join('')}</Refs></TxDtls></NtryDtls>`]),
    ...(entry.narration === '' ? [] : [`        <AddtlNtryInf>${text(entry.narration)}</AddtlNtryInf>`]),
    '      </Ntry>',
  ];
}

function codesOf(entry: Pick<BankEntry, 'type' | 'class'>): readonly string[] {
  if (entry.class === 'bank_charge') return CODES.charge;
  if (entry.type === 'RETURN') return CODES.returned;
  return entry.type === 'DEBIT' ? CODES.payout : CODES.received;
}

function amount(paise: Paise): string {
  return `${paise / 100n}.${(paise % 100n).toString().padStart(2, '0')}`;
}

/** Text content escaped for XML. */
function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
