import { SaxesParser } from 'saxes';
import { z } from 'zod';
import {
  classifyEntry,
  isCalendarDate,
  keysInText,
  parseAmount,
  readWhole,
  type BankEntry,
  type BankStatement,
  type EntrySink,
  type ReadResult,
  type StatementHead,
  type StatementStreamReader,
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

const StatementHeader = Statement.omit({ Ntry: true });

/** What the file must be around its statements: a Document holding a BkToCstmrStmt holding one Stmt or more. */
const Camt053Document = z.object({
  Document: z.object({ BkToCstmrStmt: z.object({ Stmt: z.array(z.unknown()).min(1) }) }),
});

/** Elements that may repeat: always read as arrays, so one and many look the same. */
const REPEATED = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd']);

/** How far into the file its namespace is looked for (it is on the root element, in the first lines). */
export const CAMT053_HEAD_CHARS = 64 * 1024;

/** Which camt.053 version the text declares in its namespace, or undefined when it is not camt.053. */
export function camt053Version(text: string): string | undefined {
  return CAMT053_NAMESPACE.exec(text)?.[1];
}

export function readCamt053(text: string): ReadResult {
  return readWhole(text, camt053Reader);
}

/**
 * An element as it is read: its attributes, its children (each name once, or a list when it repeats) and
 * its text, turned at its end into the value the schemas above read — text alone for a plain element, an
 * object otherwise (`@_Ccy` for an attribute, `#text` for the text beside it), text trimmed.
 */
class Element {
  readonly children = new Map<string, unknown>();
  /** Children met more than once: a list, as the repeated ones always are. */
  private readonly listed = new Set<string>(REPEATED);
  readonly attributes: Record<string, string> = {};
  text = '';
  constructor(readonly name: string) {}

  add(name: string, value: unknown): void {
    const had = this.children.get(name);
    if (this.listed.has(name)) {
      if (had === undefined) this.children.set(name, [value]);
      else (had as unknown[]).push(value);
    } else if (had === undefined) this.children.set(name, value);
    else {
      this.listed.add(name);
      this.children.set(name, [had, value]);
    }
  }

  value(): unknown {
    const text = this.text.trim();
    const attributes = Object.keys(this.attributes);
    if (this.children.size === 0 && attributes.length === 0) return text;
    return {
      ...Object.fromEntries(attributes.map((name) => [`@_${name}`, this.attributes[name]])),
      ...Object.fromEntries(this.children),
      ...(text !== '' && { '#text': text }),
    };
  }
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const issueOf = (error: z.ZodError, prefix: readonly (string | number)[]) => {
  const problem = error.issues[0]!;
  return `${[...prefix, ...problem.path.map(String)].join('/')}: ${problem.message}`;
};

/** The statement being read: its elements but its entries, and what its entries left to check at its end. */
interface OpenStatement {
  index: number;
  element: Element;
  entries: number;
  /** The first entry the schema refuses (its path and why). */
  entryIssue?: string;
  /** The first entry that is not booked. */
  statusError?: { n: number; reason: string };
  /** By currency: the first entry in it, and the first of them that cannot be read past its currency. */
  currencies: Map<string, { n: number; line: number; error?: { n: number; reason: string } }>;
}

/**
 * camt.053 as a stream (saxes, a strict, evented XML reader): each `<Ntry>` is read, checked against the
 * schema above and handed to the sink when it closes; nothing else of the file is kept but the statement's
 * own elements. A file is refused for the same reason as when it was read whole: a malformed document
 * first, then the first element the schema refuses (a statement's own elements before its entries), then
 * the first statement whose balances or entries cannot be read.
 */
export function camt053Reader(sink: EntrySink): StatementStreamReader {
  let head = '';
  let format: BankStatement['format'] | undefined;
  let refusal: string | undefined;
  const parser = new SaxesParser<{ position: true }>({ position: true });
  let xmlError: string | undefined;
  let issue: string | undefined;
  let readError: string | undefined;
  const heads: StatementHead[] = [];
  // The names of the open elements from the root, and the elements being kept (inside a statement).
  const path: string[] = [];
  const kept: Element[] = [];
  let statement: OpenStatement | undefined;
  let statements = 0;
  let entryLine = 0;
  const seen = { document: false, bankToCustomer: false };

  const inStatement = () =>
    path.length >= 3 && path[0] === 'Document' && path[1] === 'BkToCstmrStmt' && path[2] === 'Stmt';

  parser.on('error', (error) => {
    xmlError ??= error.message;
  });
  parser.on('opentagstart', (tag) => {
    if (localName(tag.name) === 'Ntry' && path.length === 3 && statement) entryLine = parser.line;
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    path.push(name);
    if (path.length === 1 && name === 'Document') seen.document = true;
    if (path.length === 2 && path[0] === 'Document' && name === 'BkToCstmrStmt') seen.bankToCustomer = true;
    if (!inStatement()) return;
    const element = new Element(name);
    for (const [attribute, value] of Object.entries(tag.attributes as Record<string, string>)) {
      if (attribute === 'xmlns' || attribute.startsWith('xmlns:')) continue;
      element.attributes[localName(attribute)] = value;
    }
    if (path.length === 3) {
      statement = { index: statements++, element, entries: 0, currencies: new Map() };
    }
    kept.push(element);
  });
  // Whitespace between elements is layout, not a value (values are trimmed), so it is not kept.
  const onText = (text: string) => {
    const element = kept.at(-1);
    if (element && text.trim() !== '') element.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const closing = path.length;
    const keptHere = inStatement();
    path.pop();
    if (!keptHere) return;
    const element = kept.pop()!;
    if (closing === 3) closeStatement(statement!);
    else if (closing === 4 && element.name === 'Ntry') readNtry(statement!, element.value(), entryLine);
    else kept.at(-1)!.add(element.name, element.value());
  });

  const readNtry = (open: OpenStatement, value: unknown, line: number) => {
    const n = open.entries++;
    if (open.entryIssue !== undefined || issue !== undefined) return;
    const parsed = Entry.safeParse(value);
    if (!parsed.success) {
      open.entryIssue = issueOf(parsed.error, ['Document', 'BkToCstmrStmt', 'Stmt', open.index, 'Ntry', n]);
      return;
    }
    const ntry = parsed.data;
    const status = typeof ntry.Sts === 'string' ? ntry.Sts : ntry.Sts.Cd;
    if (status !== 'BOOK') {
      open.statusError ??= { n, reason: `line ${line}: entry status ${status}: an end-of-day statement books entries` };
      return;
    }
    const currency = ntry.Amt['@_Ccy'];
    let inCurrency = open.currencies.get(currency);
    if (!inCurrency) open.currencies.set(currency, (inCurrency = { n, line }));
    const entry = readEntry(ntry, line);
    if (!entry.ok) {
      inCurrency.error ??= { n, reason: `line ${line}: ${entry.reason}` };
      return;
    }
    if (xmlError === undefined && readError === undefined) sink(open.index, entry.entry);
  };

  const closeStatement = (open: OpenStatement) => {
    statement = undefined;
    const header = StatementHeader.safeParse(open.element.value());
    const prefix = ['Document', 'BkToCstmrStmt', 'Stmt', open.index];
    if (!header.success) issue ??= issueOf(header.error, prefix);
    else if (open.entryIssue !== undefined) issue ??= open.entryIssue;
    if (issue !== undefined || !header.success) return;
    const read = readStatement(header.data, format!, open);
    if (!read.ok) readError ??= `${format} statement "${header.data.Id}": ${read.reason}`;
    else heads.push(read.statement);
  };

  const start = (text: string) => {
    const version = camt053Version(text);
    if (version === undefined) refusal = 'not camt.053: no camt.053 namespace';
    else if (!(version in CAMT053_VERSIONS)) {
      refusal = `camt.053.001.${version} is not a version this reader knows (001.02, 001.08)`;
    } else format = CAMT053_VERSIONS[version as keyof typeof CAMT053_VERSIONS];
    if (refusal === undefined) feed(text);
  };
  const feed = (text: string) => {
    if (xmlError === undefined) parser.write(text);
  };

  return {
    write: (text) => {
      if (refusal !== undefined) return;
      if (format !== undefined) {
        feed(text);
        return;
      }
      head += text;
      if (camt053Version(head) !== undefined || head.length >= CAMT053_HEAD_CHARS) {
        start(head);
        head = '';
      }
    },
    end: () => {
      if (format === undefined && refusal === undefined) start(head);
      if (refusal !== undefined) return { ok: false, reason: refusal };
      if (xmlError === undefined) parser.close();
      // Text with no element at all is no Document, which the schema says; a broken document is not XML.
      if (xmlError !== undefined && seen.document)
        return { ok: false, reason: `not XML that can be read: ${xmlError}` };
      if (issue === undefined && statements === 0) {
        const skeleton = seen.document ? { Document: seen.bankToCustomer ? { BkToCstmrStmt: {} } : '' } : {};
        const document = Camt053Document.safeParse(skeleton);
        if (!document.success) issue = issueOf(document.error, []);
      }
      if (issue !== undefined) return { ok: false, reason: `${format}: ${issue}` };
      if (readError !== undefined) return { ok: false, reason: readError };
      return { ok: true, statements: heads };
    },
  };
}

function readStatement(
  stmt: z.infer<typeof StatementHeader>,
  format: BankStatement['format'],
  open: OpenStatement,
): { ok: true; statement: StatementHead } | { ok: false; reason: string } {
  // Opening booked; a bank that gives the previous day's closing booked (PRCD) instead means the same.
  const opening = balanceOf(stmt.Bal, stmt.Bal.some((b) => b.Tp.CdOrPrtry.Cd === 'OPBD') ? 'OPBD' : 'PRCD');
  const closing = balanceOf(stmt.Bal, 'CLBD');
  if (!opening.ok) return opening;
  if (!closing.ok) return closing;
  const currency = closing.currency;

  // The first entry that cannot be read: not booked, in another currency than the statement's, or unreadable.
  const errors = [
    open.statusError,
    ...[...open.currencies].map(([entryCurrency, first]) =>
      entryCurrency === currency
        ? first.error
        : { n: first.n, reason: `line ${first.line}: entry in ${entryCurrency} on a ${currency} statement` },
    ),
  ].filter((e): e is { n: number; reason: string } => e !== undefined);
  const first = errors.sort((a, b) => a.n - b.n)[0];
  if (first) return { ok: false, reason: first.reason };

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

/** An entry already booked, in its statement's currency: its amount, date, keys and class. */
function readEntry(
  ntry: z.infer<typeof Entry>,
  lineNumber: number,
): { ok: true; entry: BankEntry } | { ok: false; reason: string } {
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
