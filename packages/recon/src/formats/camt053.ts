import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import {
  classifyEntry,
  isCalendarDate,
  keysInText,
  lineNumbers,
  parseAmount,
  type BankEntry,
  type BankStatement,
  type ReadResult,
} from './bank-statement.js';

/**
 * ISO 20022 camt.053 (docs/reconciliation-formats.md), versions 001.02 and 001.08. The XSD element names
 * this reader uses are all in the schema below, the one place that maps them; the rest of the file reads
 * typed values. Elements it does not use are ignored, so a bank's extra elements never refuse a file.
 */

const CAMT053_NAMESPACE = /urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.([0-9]{2})/;
export const CAMT053_VERSIONS = { '02': 'camt.053.001.02', '08': 'camt.053.001.08' } as const;

/** `<Amt Ccy="INR">101.00</Amt>`: the parser keeps the text and the attribute. */
const Amount = z.object({ '#text': z.string(), '@_Ccy': z.string().regex(/^[A-Z]{3}$/) });
/** Dates are a choice of `Dt` (a date) or `DtTm` (a date-time) in both versions. */
const DateChoice = z.object({ Dt: z.string().optional(), DtTm: z.string().optional() });
const CreditDebit = z.enum(['CRDT', 'DBIT']);

const Balance = z.object({
  Tp: z.object({ CdOrPrtry: z.object({ Cd: z.string().optional(), Prtry: z.string().optional() }) }),
  Amt: Amount,
  CdtDbtInd: CreditDebit,
  Dt: DateChoice,
});

const BankTransactionCode = z.object({
  Domn: z.object({ Cd: z.string(), Fmly: z.object({ Cd: z.string(), SubFmlyCd: z.string() }).optional() }).optional(),
  Prtry: z.object({ Cd: z.string() }).optional(),
});

const TransactionDetails = z.object({
  Refs: z
    .object({
      EndToEndId: z.string().optional(),
      AcctSvcrRef: z.string().optional(),
      ClrSysRef: z.string().optional(),
    })
    .optional(),
  RmtInf: z.object({ Ustrd: z.array(z.string()).optional() }).optional(),
  AddtlTxInf: z.string().optional(),
});

const Entry = z.object({
  Amt: Amount,
  CdtDbtInd: CreditDebit,
  RvslInd: z.enum(['true', 'false', '1', '0']).optional(),
  // 001.02 writes the status as a code; 001.08 wraps it: <Sts><Cd>BOOK</Cd></Sts>.
  Sts: z.union([z.string(), z.object({ Cd: z.string() })]),
  BookgDt: DateChoice.optional(),
  ValDt: DateChoice.optional(),
  AcctSvcrRef: z.string().optional(),
  BkTxCd: BankTransactionCode.optional(),
  NtryDtls: z.array(z.object({ TxDtls: z.array(TransactionDetails).optional() })).optional(),
  AddtlNtryInf: z.string().optional(),
});

const Statement = z.object({
  Id: z.string(),
  ElctrncSeqNb: z.string().optional(),
  LglSeqNb: z.string().optional(),
  Acct: z.object({
    Id: z.object({ IBAN: z.string().optional(), Othr: z.object({ Id: z.string() }).optional() }),
    Ccy: z.string().optional(),
  }),
  Bal: z.array(Balance),
  Ntry: z.array(Entry).optional(),
});

const Camt053Document = z.object({
  Document: z.object({ BkToCstmrStmt: z.object({ Stmt: z.array(Statement).min(1) }) }),
});

/** Elements that may repeat: always read as arrays, so one and many look the same. */
const REPEATED = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Values stay text: an amount or a sequence number is never turned into a float.
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => REPEATED.has(name),
  captureMetaData: true,
});
const META = XMLParser.getMetaDataSymbol();

/** Which camt.053 version the text declares in its namespace, or undefined when it is not camt.053. */
export function camt053Version(text: string): string | undefined {
  return CAMT053_NAMESPACE.exec(text)?.[1];
}

export function readCamt053(text: string): ReadResult {
  const version = camt053Version(text);
  if (version === undefined) return { ok: false, reason: 'not camt.053: no camt.053 namespace' };
  if (!(version in CAMT053_VERSIONS)) {
    return { ok: false, reason: `camt.053.001.${version} is not a version this reader knows (001.02, 001.08)` };
  }
  const format = CAMT053_VERSIONS[version as keyof typeof CAMT053_VERSIONS];

  let tree: unknown;
  try {
    tree = parser.parse(text);
  } catch (error) {
    return { ok: false, reason: `not XML that can be read: ${error instanceof Error ? error.message : 'unknown'}` };
  }
  const document = Camt053Document.safeParse(tree);
  if (!document.success) {
    const problem = document.error.issues[0]!;
    return { ok: false, reason: `${format}: ${problem.path.join('/')}: ${problem.message}` };
  }

  const statements: BankStatement[] = [];
  const lineOf = lineNumbers(text);
  for (const [s, stmt] of document.data.Document.BkToCstmrStmt.Stmt.entries()) {
    const entryLines = entryLineNumbers(tree, s, lineOf);
    const read = readStatement(stmt, format, entryLines);
    if (!read.ok) return { ok: false, reason: `${format} statement "${stmt.Id}": ${read.reason}` };
    statements.push(read.statement);
  }
  return { ok: true, statements };
}

function readStatement(
  stmt: z.infer<typeof Statement>,
  format: BankStatement['format'],
  entryLines: number[],
): { ok: true; statement: BankStatement } | { ok: false; reason: string } {
  // Opening booked; a bank that gives the previous day's closing booked (PRCD) instead means the same.
  const opening = balanceOf(stmt.Bal, stmt.Bal.some((b) => b.Tp.CdOrPrtry.Cd === 'OPBD') ? 'OPBD' : 'PRCD');
  const closing = balanceOf(stmt.Bal, 'CLBD');
  if (!opening.ok) return opening;
  if (!closing.ok) return closing;
  const currency = closing.currency;

  const entries: BankEntry[] = [];
  for (const [n, ntry] of (stmt.Ntry ?? []).entries()) {
    const lineNumber = entryLines[n] ?? 0;
    const entry = readEntry(ntry, currency, lineNumber);
    if (!entry.ok) return { ok: false, reason: `line ${lineNumber}: ${entry.reason}` };
    entries.push(entry.entry);
  }

  const sequenceText = stmt.ElctrncSeqNb ?? stmt.LglSeqNb;
  return {
    ok: true,
    statement: {
      format,
      id: stmt.Id,
      account: stmt.Acct.Id.IBAN ?? stmt.Acct.Id.Othr?.Id ?? null,
      sequence: sequenceText !== undefined && /^[0-9]{1,15}$/.test(sequenceText) ? Number(sequenceText) : null,
      statementDate: closing.date,
      openingBalancePaise: opening.paise,
      closingBalancePaise: closing.paise,
      currency,
      entries,
    },
  };
}

type BalanceRead = { ok: true; paise: bigint; date: string; currency: string } | { ok: false; reason: string };

function balanceOf(balances: z.infer<typeof Balance>[], code: 'OPBD' | 'PRCD' | 'CLBD'): BalanceRead {
  const balance = balances.find((b) => b.Tp.CdOrPrtry.Cd === code);
  if (!balance) return { ok: false, reason: `no ${code} balance` };
  const amount = parseAmount(balance.Amt['#text'], '.');
  const date = dateOf(balance.Dt);
  if (amount === undefined) return { ok: false, reason: `${code} amount "${balance.Amt['#text']}" is not an amount` };
  if (date === undefined) return { ok: false, reason: `${code} has no date` };
  return { ok: true, paise: balance.CdtDbtInd === 'DBIT' ? -amount : amount, date, currency: balance.Amt['@_Ccy'] };
}

function readEntry(
  ntry: z.infer<typeof Entry>,
  currency: string,
  lineNumber: number,
): { ok: true; entry: BankEntry } | { ok: false; reason: string } {
  const status = typeof ntry.Sts === 'string' ? ntry.Sts : ntry.Sts.Cd;
  if (status !== 'BOOK') return { ok: false, reason: `entry status ${status}: an end-of-day statement books entries` };
  if (ntry.Amt['@_Ccy'] !== currency) {
    return { ok: false, reason: `entry in ${ntry.Amt['@_Ccy']} on a ${currency} statement` };
  }
  const amountPaise = parseAmount(ntry.Amt['#text'], '.');
  if (amountPaise === undefined || amountPaise === 0n) {
    return { ok: false, reason: `amount "${ntry.Amt['#text']}" is not an amount` };
  }
  const valueDate = (ntry.ValDt && dateOf(ntry.ValDt)) ?? (ntry.BookgDt && dateOf(ntry.BookgDt));
  if (valueDate === undefined) return { ok: false, reason: 'the entry has no value date or booking date' };

  const details = (ntry.NtryDtls ?? []).flatMap((d) => d.TxDtls ?? []);
  const narration = [
    ntry.AddtlNtryInf,
    ...details.flatMap((d) => d.RmtInf?.Ustrd ?? []),
    ...details.map((d) => d.AddtlTxInf),
  ]
    .filter((text): text is string => text !== undefined && text !== '')
    .join(' ');
  const keys = keysInText([
    ...details.map((d) => d.Refs?.EndToEndId ?? ''),
    ...details.map((d) => d.Refs?.ClrSysRef ?? ''),
    narration,
  ]);
  const code = ntry.BkTxCd;
  const kind = classifyEntry({
    direction: ntry.CdtDbtInd === 'DBIT' ? 'DEBIT' : 'CREDIT',
    reversal: ntry.RvslInd === 'true' || ntry.RvslInd === '1',
    codes: [code?.Domn?.Fmly?.SubFmlyCd, code?.Domn?.Fmly?.Cd, code?.Prtry?.Cd].filter(
      (c): c is string => c !== undefined,
    ),
    narration,
    reference: keys.reference,
  });
  const bankReference = ntry.AcctSvcrRef ?? details.find((d) => d.Refs?.AcctSvcrRef)?.Refs?.AcctSvcrRef;
  return {
    ok: true,
    entry: {
      lineNumber,
      valueDate,
      type: kind.type,
      amountPaise,
      ...keys,
      ...(bankReference !== undefined && { bankReference }),
      narration,
      class: kind.class,
    },
  };
}

/** The date of a `Dt`/`DtTm` choice: a date-time is the bank's own, so its date part is the bank's day. */
function dateOf(choice: z.infer<typeof DateChoice>): string | undefined {
  const date = choice.Dt ?? choice.DtTm?.slice(0, 10);
  return date !== undefined && isCalendarDate(date) ? date : undefined;
}

/** The line each `<Ntry>` of statement `s` starts on, from the offsets the parser recorded. */
function entryLineNumbers(tree: unknown, s: number, lineOf: (offset: number) => number): number[] {
  const stmt = (tree as { Document: { BkToCstmrStmt: { Stmt: Record<string, unknown>[] } } }).Document.BkToCstmrStmt
    .Stmt[s];
  const ntries = (stmt?.Ntry ?? []) as Record<symbol, { startIndex?: number } | undefined>[];
  return ntries.map((ntry) => lineOf(ntry[META as symbol]?.startIndex ?? 0));
}
