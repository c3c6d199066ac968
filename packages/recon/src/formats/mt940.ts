import mt940Tags, { type ParsedTag } from 'mt940js/lib/tags.js';
import {
  classifyEntry,
  isCalendarDate,
  keysInText,
  narrationTexts,
  LineSplitter,
  parseAmount,
  readWhole,
  type BankEntry,
  type EntrySink,
  type ReadResult,
  type StatementHead,
  type StatementStreamReader,
} from './bank-statement.js';

/**
 * SWIFT MT940 (docs/reconciliation-formats.md): `:20:` the statement's reference, `:25:` the account,
 * `:28C:` statement number/page, `:60F:`/`:60M:` opening balance, one `:61:` per movement with its `:86:`
 * narration, `:62F:`/`:62M:` closing balance. mt940js's tag classes read each tag; the amounts are read
 * here from the raw tags, in exact paise.
 */

// The file is read as a stream, tag by tag, with mt940js's own tag classes (lib/tags.js), in the order and
// with the checks of its `Parser.parse` (lines, tags, statements, then each statement's mandatory tags and
// currency), so a file is accepted or refused for the same reason as when mt940js read it whole. The
// library's last check, opening + lines = closing in floats, is left to the whole-file check
// (statement-file.ts), in paise, so that a file failing it is refused with the amounts.
const factory = new mt940Tags.TagFactory();
const TAG_START = /^:([0-9]{2}|NS)([A-Z])?:/;
const MANDATORY_TAGS = [20, 25, 28, 60, 62];
const BALANCE_TAGS = new Set<number | string>([60, 62, 64, 65]);

// :60F:C261123INR1000,00 — credit/debit mark, date YYMMDD, currency, amount with a decimal comma.
const BALANCE = /^([DC])([0-9]{6})([A-Z]{3})([0-9,]{1,16})$/;
// :61:2611232311D101,00NTRF… — value date, optional entry date MMDD, mark (R for a reversal), optional
// funds code, amount; mt940js reads the rest (type code, references).
const MOVEMENT = /^([0-9]{6})(?:[0-9]{4})?(RD|RC|D|C)[A-Z]?([0-9,]{1,16})[A-Z]/;

/** True when the text is laid out as MT940: a `:20:` tag and an opening balance `:60F:` or `:60M:`. */
export function looksLikeMt940(text: string): boolean {
  return /^:20:/m.test(text) && /^:60[FM]:/m.test(text);
}

export function readMt940(file: string): ReadResult {
  return readWhole(file, mt940Reader);
}

interface RawTag {
  id: string;
  subId: string;
  data: string[];
  /** The file line the tag starts on (1-based). */
  line: number;
}

/** One statement (a group of tags from `:20:`, or from a message's first block) as it is read. */
interface Group {
  index: number;
  present: Set<number | string>;
  /** The currency of its first balance, and a second one if another balance differs from it. */
  currency: string;
  currencyError?: string;
  /** The currency of its opening balance: the statement's. */
  statementCurrency?: string;
  reference: string;
  account: string;
  number: string;
  openingTag?: string;
  closingTag?: string;
  /** A `:61:` waiting for the tag after it: its `:86:` narration, if that is what follows. */
  pending?: { line: number; data: string; fields: Mt940Transaction };
  /** The first entry of it that cannot be read. */
  entryError?: string;
}

type Mt940Transaction = { transactionType: string; reference: string; bankReference: string; extraDetails: string };

/** MT940 as a stream: entries to the sink as each `:61:` and its `:86:` are read. */
export function mt940Reader(sink: EntrySink): StatementStreamReader {
  // The first reason of each kind, in the order mt940js would meet them reading the file whole.
  const errors: { lines?: string; tag?: string; grouping?: string; group?: string; read?: string } = {};
  const statements: StatementHead[] = [];
  let lineNumber = 0;
  let current: RawTag | null = null;
  let messageBlocks: boolean | undefined;
  let group: Group | undefined;
  let groups = 0;

  const failed = () => Object.keys(errors).length > 0;
  const splitter = new LineSplitter((line) => onLine(line));

  const onLine = (line: string) => {
    lineNumber++;
    if (errors.lines !== undefined || !line || line === '-') return;
    const match = TAG_START.exec(line);
    if (match || line.startsWith('-}') || line.startsWith('{')) {
      if (current) onTag(current);
      current = match
        ? { id: match[1]!, subId: match[2] ?? '', data: [line.slice(match[0].length)], line: lineNumber }
        : { id: 'MB', subId: '', data: [line.trim()], line: lineNumber };
    } else if (current) {
      current.data.push(line);
    } else {
      errors.lines = "Cannot read properties of null (reading 'data')";
    }
  };

  const onTag = (raw: RawTag) => {
    if (errors.tag !== undefined) return;
    let tag: ParsedTag;
    try {
      tag = factory.createTag(raw.id, raw.subId, raw.data.join('\n'));
    } catch (error) {
      errors.tag = error instanceof Error ? error.message : 'unknown';
      return;
    }
    messageBlocks ??= tag.id === 'MB';
    const starts = messageBlocks ? tag.id === 'MB' && tag.isStarting === true : tag.id === 20;
    if (starts) {
      closeGroup();
      group = { index: groups++, present: new Set(), currency: '', reference: '', account: '', number: '' };
    }
    if (!group) {
      errors.grouping ??= "Cannot read properties of undefined (reading 'push')";
      return;
    }
    addTag(group, tag, raw.line);
  };

  const addTag = (g: Group, tag: ParsedTag, line: number) => {
    if (g.pending) {
      const details = tag.id === 86 ? tag.data : '';
      const { pending } = g;
      g.pending = undefined;
      emit(g, pending, details);
    }
    g.present.add(tag.id);
    const fields = tag.fields as Record<string, string>;
    if (BALANCE_TAGS.has(tag.id)) {
      const currency = fields.currency!;
      if (!g.currency) g.currency = currency;
      else if (g.currency !== currency) {
        g.currencyError ??= `Currency markers are differ [${g.currency}, ${currency}] in group ${g.index + 1}`;
      }
    }
    if (tag.id === 20) g.reference = fields.transactionReference!;
    if (tag.id === 25) g.account = fields.accountIdentification!;
    if (tag.id === 28) g.number = fields.statementNumber!;
    if (tag.id === 60) {
      g.openingTag ??= tag.data;
      g.statementCurrency = fields.currency!;
    }
    if (tag.id === 62) g.closingTag = tag.data;
    if (tag.id === 61) g.pending = { line, data: tag.data, fields: tag.fields as unknown as Mt940Transaction };
  };

  const emit = (g: Group, pending: NonNullable<Group['pending']>, details: string) => {
    const entry = readMovement(pending.data, pending.fields, details, pending.line);
    if (!entry.ok) {
      g.entryError ??= `line ${pending.line}: ${entry.reason}`;
      return;
    }
    if (!failed() && g.entryError === undefined) sink(g.index, entry.entry);
  };

  const closeGroup = () => {
    const g = group;
    if (!g) return;
    if (g.pending) {
      const { pending } = g;
      g.pending = undefined;
      emit(g, pending, '');
    }
    const missing = MANDATORY_TAGS.find((id) => !g.present.has(id));
    if (missing !== undefined) errors.group ??= `Mandatory tag ${missing} is missing in group ${g.index + 1}`;
    else if (g.currencyError !== undefined) errors.group ??= g.currencyError;
    if (errors.group !== undefined) return;
    const opening = g.openingTag === undefined ? undefined : balanceOf(g.openingTag);
    const closing = g.closingTag === undefined ? undefined : balanceOf(g.closingTag);
    const name = `statement "${g.reference}"`;
    if (!opening || !closing) errors.read ??= `${name}: the :60F:/:62F: balance cannot be read`;
    else if (g.entryError !== undefined) errors.read ??= g.entryError;
    if (!opening || !closing) return;
    const sequence = Number(g.number);
    statements.push({
      format: 'mt940',
      id: g.reference.trim() || null,
      account: g.account.trim() || null,
      sequence: Number.isSafeInteger(sequence) ? sequence : null,
      statementDate: closing.date,
      openingBalancePaise: opening.paise,
      closingBalancePaise: closing.paise,
      currency: g.statementCurrency ?? '',
    });
  };

  return {
    write: (text) => splitter.write(text),
    end: () => {
      splitter.end();
      if (current && errors.lines === undefined) onTag(current);
      current = null;
      if (errors.tag === undefined && errors.grouping === undefined) closeGroup();
      group = undefined;
      const reason = errors.lines ?? errors.tag ?? errors.grouping ?? errors.group;
      if (reason !== undefined) return { ok: false, reason: `not MT940 that can be read: ${reason}` };
      if (groups === 0) return { ok: false, reason: 'the MT940 file holds no statement' };
      if (errors.read !== undefined) return { ok: false, reason: errors.read };
      return { ok: true, statements };
    },
  };
}

function readMovement(
  raw: string,
  transaction: Mt940Transaction,
  details: string,
  lineNumber: number,
): { ok: true; entry: BankEntry } | { ok: false; reason: string } {
  const match = MOVEMENT.exec(raw);
  const valueDate = match ? dateOf(match[1]!) : undefined;
  const amountPaise = match ? parseAmount(match[3]!, ',') : undefined;
  if (!match || valueDate === undefined || amountPaise === undefined || amountPaise === 0n) {
    return { ok: false, reason: `the :61: line "${raw.split('\n')[0]}" cannot be read` };
  }
  const mark = match[2]!;
  // RD reverses a debit (money comes back), RC reverses a credit (money goes out).
  const direction = mark === 'D' || mark === 'RC' ? 'DEBIT' : 'CREDIT';
  const { narration, searchIn } = narrationTexts(details.split('\n'));
  const keys = keysInText([transaction.reference, ...searchIn, transaction.extraDetails]);
  const kind = classifyEntry({
    direction,
    reversal: mark === 'RD',
    codes: [transaction.transactionType],
    narration,
    reference: keys.reference,
  });
  return {
    ok: true,
    entry: {
      lineNumber,
      valueDate,
      type: kind.type,
      amountPaise,
      ...keys,
      ...(transaction.bankReference !== '' && { bankReference: transaction.bankReference }),
      narration,
      class: kind.class,
    },
  };
}

function balanceOf(data: string): { date: string; paise: bigint } | undefined {
  const match = BALANCE.exec(data.trim());
  if (!match) return undefined;
  const date = dateOf(match[2]!);
  const amount = parseAmount(match[4]!, ',');
  if (date === undefined || amount === undefined) return undefined;
  return { date, paise: match[1] === 'D' ? -amount : amount };
}

/** YYMMDD as YYYY-MM-DD (20YY: MT940 has no century), when it is a real date. */
function dateOf(yymmdd: string): string | undefined {
  const date = `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  return isCalendarDate(date) ? date : undefined;
}
