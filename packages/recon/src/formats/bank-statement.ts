import { ACK_NO_PATTERN, type Paise } from '@payout/domain';

/**
 * A statement as the bank sent it, whatever its format (docs/reconciliation-formats.md): the account, the
 * statement's sequence number, its booked opening and closing balances and every movement. The readers in
 * this folder produce it; `statement-file.ts` checks it whole and turns it into the canonical lines the
 * matcher reads.
 */
export type StatementFormat = 'mt940' | 'camt.053.001.02' | 'camt.053.001.08' | 'bank-csv' | 'canonical-csv';

/** DEBIT: money left the account. CREDIT: money came in. RETURN: money of a payout came back. */
export type BankEntryType = 'DEBIT' | 'CREDIT' | 'RETURN';

/**
 * payout: a debit carrying our reference. return: money of a payout came back, as the bank's transaction code
 * says. uncoded_return: money in that only its narration (or a reversal mark without a return code) calls a
 * return — the remitter writes narration, so it is a break for a person, never a reversal. bank_charge:
 * charges, the GST on them, commission and interest. unknown: anything else (a top-up, a debit without our
 * reference).
 */
export type BankEntryClass = 'payout' | 'return' | 'uncoded_return' | 'bank_charge' | 'unknown';

export interface BankEntry {
  /** 1-based line of the file where the movement starts (MT940 `:61:`, camt `<Ntry>`, the CSV row). */
  lineNumber: number;
  /** YYYY-MM-DD, the bank's (IST) value date. */
  valueDate: string;
  type: BankEntryType;
  /** Always positive: `type` says the direction. */
  amountPaise: Paise;
  /** The payment system's reference (IMPS/UPI RRN, NEFT or RTGS UTR) found in the narration. */
  utr?: string;
  /** Our reference (the payout's Ack_no) found in the entry. */
  reference?: string;
  /** The bank's own reference of the entry (MT940 `//…` of `:61:`, camt `AcctSvcrRef`, a CSV column). */
  bankReference?: string;
  /** The free text the bank wrote about the movement. */
  narration: string;
  class: BankEntryClass;
  /** The running balance the bank printed after this entry, when the format has one (bank CSV exports). */
  balanceAfterPaise?: Paise;
}

export interface BankStatement {
  format: StatementFormat;
  /** The statement's own identifier (MT940 `:20:`, camt `Stmt/Id`), when the format has one. */
  id: string | null;
  /** The account the statement is for, as the bank wrote it; null when the file does not say. */
  account: string | null;
  /** The statement number (MT940 `:28C:`, camt `ElctrncSeqNb` or `LglSeqNb`); null when the file has none. */
  sequence: number | null;
  /** YYYY-MM-DD the statement closes on (MT940 `:62F:`, camt CLBD), when the file says. */
  statementDate: string | null;
  /** Booked balances, signed (an overdrawn account is negative); null when the file carries none. */
  openingBalancePaise: Paise | null;
  closingBalancePaise: Paise | null;
  currency: string;
  entries: BankEntry[];
}

/** A reader's answer: the file's statements, or why the file cannot be read (never an exception). */
export type ReadResult = { ok: true; statements: BankStatement[] } | { ok: false; reason: string };

// Reference shapes of India's payment systems (docs/reconciliation-formats.md, "Keys in the narration"):
// IMPS and UPI give a 12-digit RRN, NEFT a 16-character UTR (the bank's 4-letter code and N), RTGS a
// 22-character one (the bank's code and R).
const UTR_SHAPES = [/^[0-9]{12}$/, /^[A-Z]{4}N[0-9]{11}$/, /^[A-Z]{4}R[A-Z0-9][0-9]{16}$/];

export function isUtrShaped(token: string): boolean {
  return UTR_SHAPES.some((shape) => shape.test(token));
}

// A masked account number as banks print it in narrations: "XXXXXXXX1234".
const MASKED_NUMBER = /^X+[0-9]+$/;

/**
 * Our Ack_no is 12–20 upper-case letters and digits (packages/domain identifiers). In free text that shape
 * also fits words, numbers and masked account numbers, so a candidate must mix letters and digits and be
 * neither a UTR nor a mask.
 */
export function isReferenceShaped(token: string): boolean {
  return (
    ACK_NO_PATTERN.test(token) &&
    /[A-Z]/.test(token) &&
    /[0-9]/.test(token) &&
    !isUtrShaped(token) &&
    !MASKED_NUMBER.test(token)
  );
}

function tokens(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter((t) => t !== '');
}

/** The first token of the first text that has one of the shape: texts are searched in order of trust. */
function firstToken(texts: readonly string[], shaped: (token: string) => boolean): string | undefined {
  for (const text of texts) {
    const found = tokens(text).find(shaped);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Our reference and the UTR, wherever the bank put them in its text (docs/reconciliation-formats.md). */
export function keysInText(texts: readonly string[]): { reference?: string; utr?: string } {
  const reference = firstToken(texts, isReferenceShaped);
  const utr = firstToken(texts, isUtrShaped);
  return { ...(reference !== undefined && { reference }), ...(utr !== undefined && { utr }) };
}

/**
 * Narration an MT940 `:86:` or similar field spread over fixed-width lines: the lines are one text (a
 * token may be cut at a line end), but a bank that ends a line at a word boundary glues two words
 * together when they are joined. Keys are looked for in the joined text first, then with a space at each
 * line break.
 */
export function narrationTexts(lines: readonly string[]): { narration: string; searchIn: string[] } {
  const narration = lines.join('');
  return { narration, searchIn: [narration, lines.join(' ')] };
}

// Transaction type codes that mean a charge or interest: SWIFT MT940 `:61:` (NCHG charges, NCOM
// commission, NINT interest) and ISO 20022 bank transaction sub-families (CHRG, COMM, INTR, TAXE for the
// GST on charges, FEES).
const CHARGE_CODES = new Set(['NCHG', 'NCOM', 'NINT', 'CHRG', 'COMM', 'INTR', 'TAXE', 'FEES']);
// ISO 20022 sub-families of a returned transfer (PMNT/ICDT/RRTN, and RTRN as banks write it in a family or a
// proprietary code).
const ISO_RETURN_CODES = new Set(['RRTN', 'RTRN']);
// SWIFT MT940 `:61:` transaction type identification of a returned item: its type (N, F or S) then RTI or RTN.
const SWIFT_RETURN_CODE = /^[NFS]RT[IN]$/;

/**
 * True for a bank transaction code that says money of a payment came back (docs/reconciliation-formats.md):
 * MT940 `NRTI`/`NRTN` (and their F and S forms), camt `RRTN`/`RTRN` as a sub-family, family or proprietary code.
 */
export function isReturnCode(code: string): boolean {
  const plain = code.trim().toUpperCase();
  return ISO_RETURN_CODES.has(plain) || SWIFT_RETURN_CODE.test(plain);
}

/**
 * How Indian banks name charges in free text: "IMPS CHG", "CHARGES", "GST ON CHARGES" (or CGST, SGST, IGST),
 * "INTEREST", "INT.PD". Words a merchant might put in a payout's remark ("fee") are left out.
 */
export const CHARGE_NARRATION = /\b(CHG|CHGS|CHRG|CHARGES?|COMMISSION|[CSI]?GST|INTEREST|INT\.?\s?(PD|PAID|CR))\b/i;
/**
 * How narrations call money a return: "IMPS RETURN", "REV-IMPS", "REVERSAL", "RTN". Only a claim: anyone who
 * sends money writes its narration, so words alone never make a return (docs/reconciliation.md).
 */
export const RETURN_NARRATION = /\b(RETURN|RETURNED|RTN|REV|REVERSAL|REVERSED)\b/i;

export interface EntryFacts {
  /** Which way the money moved on the account. */
  direction: 'DEBIT' | 'CREDIT';
  /** The format marks the entry as reversing a debit (MT940 RD, camt RvslInd). */
  reversal: boolean;
  /** Transaction type codes the format gives (MT940 `:61:` type, camt BkTxCd codes, a CSV code column). */
  codes: readonly string[];
  narration: string;
  reference: string | undefined;
  /** A bank profile's own way of spotting charges and claimed returns in narration, when it has one (bank CSV). */
  chargeNarration?: RegExp;
  returnNarration?: RegExp;
  /** A bank profile's own return codes for its code column (bank CSV), besides the SWIFT and ISO ones. */
  returnCodes?: ReadonlySet<string>;
  /** A bank profile's own charge codes for its code column (bank CSV). */
  chargeCodes?: ReadonlySet<string>;
}

/**
 * One place decides what a movement is, for every format: a charge by code or wording wins (a charge
 * refunded is still a charge, a CREDIT); money coming in is a RETURN only when the bank's transaction code
 * says so (docs/reconciliation-formats.md, "The model"). Money in that the narration or a reversal mark
 * without a return code calls a return is an `uncoded_return`: a CREDIT for a person to look at, never
 * applied. A debit is a payout when it carries our reference.
 */
export function classifyEntry(facts: EntryFacts): { type: BankEntryType; class: BankEntryClass } {
  const code = (c: string) => c.trim().toUpperCase();
  const charge =
    facts.codes.some((c) => CHARGE_CODES.has(code(c)) || facts.chargeCodes?.has(code(c))) ||
    (facts.chargeNarration ?? CHARGE_NARRATION).test(facts.narration);
  if (charge) return { type: facts.direction, class: 'bank_charge' };
  if (facts.direction === 'CREDIT') {
    if (facts.codes.some((c) => isReturnCode(c) || facts.returnCodes?.has(code(c)))) {
      return { type: 'RETURN', class: 'return' };
    }
    const claimed = facts.reversal || (facts.returnNarration ?? RETURN_NARRATION).test(facts.narration);
    return { type: 'CREDIT', class: claimed ? 'uncoded_return' : 'unknown' };
  }
  return { type: 'DEBIT', class: facts.reference === undefined ? 'unknown' : 'payout' };
}

/** +amount for money in, −amount for money out: how an entry moves the balance. */
export function signedAmount(entry: Pick<BankEntry, 'type' | 'amountPaise'>): Paise {
  return entry.type === 'DEBIT' ? -entry.amountPaise : entry.amountPaise;
}

/**
 * An unsigned decimal amount in paise, exactly: the integer part, then the format's decimal mark and at
 * most two significant fraction digits (camt allows five, the rest must be zeros). Undefined otherwise.
 */
export function parseAmount(text: string, decimalMark: '.' | ','): Paise | undefined {
  const mark = decimalMark === '.' ? '\\.' : ',';
  const match = new RegExp(`^([0-9]{1,15})(?:${mark}([0-9]{0,5}))?$`).exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (/[^0]/.test(fraction.slice(2))) return undefined;
  return BigInt(match[1]!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, '0'));
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The 1-based line number of a character offset in `text`, reading it once. */
export function lineNumbers(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}

/** A statement as a streaming reader answers it at the file's end: everything but its entries. */
export type StatementHead = Omit<BankStatement, 'entries'>;

/** Where a streaming reader hands each entry as soon as it is read: `statement` is its statement's place (0-based). */
export type EntrySink = (statement: number, entry: BankEntry) => void;

/**
 * A statement file read as a stream (docs/reconciliation.md, "Memory"): text in, entries out to the sink as
 * they are read, the statements' heads at the end. Nothing of the file is kept but the statement being read,
 * so a file of any length is read in the same memory. A file that cannot be read answers why at its end, the
 * same reason the whole text would: the entries handed out before it are then worth nothing.
 */
export interface StatementStreamReader {
  write(text: string): void;
  end(): { ok: true; statements: StatementHead[] } | { ok: false; reason: string };
}

/** Reads a whole text through a streaming reader: the one reader of each layout, for text in memory too. */
export function readWhole(text: string, reader: (sink: EntrySink) => StatementStreamReader): ReadResult {
  const entries: BankEntry[][] = [];
  const stream = reader((statement, entry) => (entries[statement] ??= []).push(entry));
  stream.write(text);
  const read = stream.end();
  if (!read.ok) return read;
  return { ok: true, statements: read.statements.map((head, s) => ({ ...head, entries: entries[s] ?? [] })) };
}

/**
 * Splits text fed in pieces into lines exactly as `text.split(/\r?\n/)` would split it whole (a leading
 * byte-order mark dropped): a line is handed out once its end is read, the last one at `end()`.
 */
export class LineSplitter {
  private rest = '';
  private started = false;
  constructor(private readonly onLine: (line: string) => void) {}

  write(text: string): void {
    let chunk = this.rest + text;
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    let from = 0;
    for (;;) {
      const at = chunk.indexOf('\n', from);
      if (at < 0) break;
      const end = at > from && chunk.charCodeAt(at - 1) === 13 ? at - 1 : at;
      this.onLine(chunk.slice(from, end));
      from = at + 1;
    }
    this.rest = chunk.slice(from);
  }

  end(): void {
    this.onLine(this.rest);
    this.rest = '';
  }
}
