import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BankEntry } from './bank-statement.js';
import { readCamt053 } from './camt053.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../test/recon/fixtures/${name}`, import.meta.url), 'utf8');

/** The golden entries of both camt.053 fixtures: they differ only in how they mark the return. */
function goldenEntries(lastLine: number): BankEntry[] {
  const day = { valueDate: '2026-11-24' };
  return [
    {
      ...day,
      lineNumber: 53,
      type: 'DEBIT',
      amountPaise: 250000n,
      // EndToEndId is NOTPROVIDED: our reference is only in the remittance text.
      reference: '01MCC5RM007QX2KD9F4T',
      utr: '912807471309',
      bankReference: 'HDFC2611240000001',
      narration: 'IMPS/P2A/912807471309/RAVI KUMAR/SBIN0001234/01MCC5RM007QX2KD9F4T',
      class: 'payout',
    },
    {
      ...day,
      lineNumber: 79,
      type: 'DEBIT',
      amountPaise: 1000000n,
      reference: '01MCC5RM01B8N3WZ6H2C',
      utr: 'HDFCN62632800123',
      bankReference: 'HDFC2611240000002',
      narration: 'NEFT DR-HDFCN62632800123-PRIYA SHARMA-ICIC0000456',
      class: 'payout',
    },
    {
      ...day,
      lineNumber: 104,
      type: 'DEBIT',
      amountPaise: 590n,
      bankReference: 'HDFC2611240000003',
      // No charge word: the bank transaction code ACMT/MDOP/CHRG says it.
      narration: 'IMPS TRANSACTION FEE 24-11-2026',
      class: 'bank_charge',
    },
    {
      ...day,
      lineNumber: 121,
      type: 'DEBIT',
      amountPaise: 106n,
      bankReference: 'HDFC2611240000004',
      narration: 'GST ON CHARGES 24-11-2026',
      class: 'bank_charge',
    },
    {
      ...day,
      lineNumber: 138,
      type: 'RETURN',
      amountPaise: 150000n,
      reference: '01MCC5RM02Y5P7GJ1R8D',
      utr: '912807471400',
      bankReference: 'HDFC2611240000005',
      narration: 'IMPS/912807471400/01MCC5RM02Y5P7GJ1R8D ACCOUNT CLOSED',
      class: 'return',
    },
    {
      ...day,
      lineNumber: lastLine,
      type: 'CREDIT',
      amountPaise: 50000000n,
      utr: 'UTIBN62632800777',
      bankReference: 'HDFC2611240000006',
      narration: 'NEFT CR-UTIBN62632800777-ACME TRADING PVT LTD-WALLET FUNDING',
      class: 'unknown',
    },
  ];
}

const STATEMENT = {
  id: 'STMT2611240123',
  account: '50200012345678',
  sequence: 123,
  statementDate: '2026-11-24',
  openingBalancePaise: 100000000n,
  closingBalancePaise: 148899304n,
  currency: 'INR',
};

describe('readCamt053', () => {
  it('when the golden camt.053.001.02 file is read, then the return is known by its transaction code RRTN', () => {
    expect(readCamt053(fixture('statement.camt053.001.02.xml'))).toEqual({
      ok: true,
      statements: [{ format: 'camt.053.001.02', ...STATEMENT, entries: goldenEntries(165) }],
    });
  });

  it('when the golden camt.053.001.08 file is read, then the status in <Cd> is read and the return is known by RvslInd', () => {
    expect(readCamt053(fixture('statement.camt053.001.08.xml'))).toEqual({
      ok: true,
      statements: [{ format: 'camt.053.001.08', ...STATEMENT, entries: goldenEntries(166) }],
    });
  });

  it('when the elements carry a namespace prefix and the opening balance is PRCD, then it reads the same', () => {
    const text = `<?xml version="1.0"?>
<c:Document xmlns:c="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><c:BkToCstmrStmt><c:Stmt>
<c:Id>S9</c:Id><c:LglSeqNb>41</c:LglSeqNb><c:Acct><c:Id><c:IBAN>IN12HDFC0000060502000123</c:IBAN></c:Id></c:Acct>
<c:Bal><c:Tp><c:CdOrPrtry><c:Cd>PRCD</c:Cd></c:CdOrPrtry></c:Tp><c:Amt Ccy="INR">5.00</c:Amt><c:CdtDbtInd>DBIT</c:CdtDbtInd><c:Dt><c:Dt>2026-11-23</c:Dt></c:Dt></c:Bal>
<c:Bal><c:Tp><c:CdOrPrtry><c:Cd>CLBD</c:Cd></c:CdOrPrtry></c:Tp><c:Amt Ccy="INR">0.00000</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:Dt><c:DtTm>2026-11-24T23:59:59+05:30</c:DtTm></c:Dt></c:Bal>
<c:Ntry><c:Amt Ccy="INR">5.00</c:Amt><c:CdtDbtInd>CRDT</c:CdtDbtInd><c:Sts>BOOK</c:Sts><c:BookgDt><c:Dt>2026-11-24</c:Dt></c:BookgDt>
<c:BkTxCd><c:Prtry><c:Cd>NTRF</c:Cd></c:Prtry></c:BkTxCd><c:AddtlNtryInf>TOP UP &amp; FUNDING</c:AddtlNtryInf></c:Ntry>
</c:Stmt></c:BkToCstmrStmt></c:Document>`;
    const read = readCamt053(text);
    expect(read).toEqual({
      ok: true,
      statements: [
        {
          format: 'camt.053.001.02',
          id: 'S9',
          account: 'IN12HDFC0000060502000123',
          sequence: 41,
          statementDate: '2026-11-24',
          openingBalancePaise: -500n,
          closingBalancePaise: 0n,
          currency: 'INR',
          entries: [
            {
              lineNumber: 6,
              // No ValDt: the booking date stands in.
              valueDate: '2026-11-24',
              type: 'CREDIT',
              amountPaise: 500n,
              narration: 'TOP UP & FUNDING',
              class: 'unknown',
            },
          ],
        },
      ],
    });
  });

  it.each([
    [
      'another version',
      (t: string) => t.replaceAll('camt.053.001.02', 'camt.053.001.04'),
      /camt\.053\.001\.04 is not a version/,
    ],
    ['a pending entry', (t: string) => t.replace('<Sts>BOOK</Sts>', '<Sts>PDNG</Sts>'), /line 53: entry status PDNG/],
    ['no closing balance', (t: string) => t.replace('<Cd>CLBD</Cd>', '<Cd>ITBD</Cd>'), /no CLBD balance/],
    [
      'an entry in another currency',
      (t: string) => t.replace('<Amt Ccy="INR">5.90', '<Amt Ccy="USD">5.90'),
      /line 104: entry in USD/,
    ],
    ['an amount with three significant decimals', (t: string) => t.replace('>5.90<', '>5.901<'), /amount "5.901"/],
    ['an entry without its amount', (t: string) => t.replace('<Amt Ccy="INR">2500.00</Amt>', ''), /Ntry\/0\/Amt/],
    ['not XML at all but the namespace', () => 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.02', /Document/],
  ])('when the file has %s, then it is refused with why', (_case, edit, reason) => {
    const read = readCamt053(edit(fixture('statement.camt053.001.02.xml')));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });
});
