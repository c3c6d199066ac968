import { Parser, type Statement as Mt940Statement, type Tag } from 'mt940js';
import {
  classifyEntry,
  isCalendarDate,
  keysInText,
  narrationTexts,
  parseAmount,
  type BankEntry,
  type BankStatement,
  type ReadResult,
} from './bank-statement.js';

/**
 * SWIFT MT940 (docs/reconciliation-formats.md): `:20:` the statement's reference, `:25:` the account,
 * `:28C:` statement number/page, `:60F:`/`:60M:` opening balance, one `:61:` per movement with its `:86:`
 * narration, `:62F:`/`:62M:` closing balance. mt940js splits the file into statements and tags; the
 * amounts are read here from the raw tags, in exact paise.
 */

// mt940js checks opening + lines = closing itself, in floats, and throws. That check is the whole-file
// check's (statement-file.ts), in paise, so that a file failing it is refused with the amounts. The
// library's check is the last one it makes, so nothing else is skipped.
class Mt940Parser extends Parser {
  protected override _validateGroup(group: Tag[], index: number): void {
    try {
      super._validateGroup(group, index);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('Sum of lines')) return;
      throw error;
    }
  }
}

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
  const text = file.replace(/^\uFEFF/, '');
  let parsed: Mt940Statement[];
  try {
    parsed = new Mt940Parser({ no86Structure: true }).parse(text, true);
  } catch (error) {
    return { ok: false, reason: `not MT940 that can be read: ${error instanceof Error ? error.message : 'unknown'}` };
  }
  if (parsed.length === 0) return { ok: false, reason: 'the MT940 file holds no statement' };

  const movementLines = linesStartingWith(text, ':61:');
  const statements: BankStatement[] = [];
  let movementIndex = 0;
  for (const source of parsed) {
    const read = readStatement(source, () => movementLines[movementIndex++] ?? 0);
    if (!read.ok) return read;
    statements.push(read.statement);
  }
  return { ok: true, statements };
}

function readStatement(
  source: Mt940Statement,
  nextLineNumber: () => number,
): { ok: true; statement: BankStatement } | { ok: false; reason: string } {
  const tags = source.tags ?? [];
  const statementName = `statement "${source.transactionReference}"`;
  const opening = balanceOf(tags.find((t) => t.id === 60));
  const closing = balanceOf(tags.findLast((t) => t.id === 62));
  if (!opening || !closing) return { ok: false, reason: `${statementName}: the :60F:/:62F: balance cannot be read` };

  const entries: BankEntry[] = [];
  let transactionIndex = 0;
  for (let i = 0; i < tags.length; i++) {
    if (tags[i]!.id !== 61) continue;
    const lineNumber = nextLineNumber();
    const transaction = source.transactions[transactionIndex++]!;
    const details = tags[i + 1]?.id === 86 ? tags[i + 1]!.data : '';
    const entry = readMovement(tags[i]!.data, transaction, details, lineNumber);
    if (!entry.ok) return { ok: false, reason: `line ${lineNumber}: ${entry.reason}` };
    entries.push(entry.entry);
  }

  const sequence = Number(source.number.statement);
  return {
    ok: true,
    statement: {
      format: 'mt940',
      id: source.transactionReference.trim() || null,
      account: source.accountIdentification.trim() || null,
      sequence: Number.isSafeInteger(sequence) ? sequence : null,
      statementDate: closing.date,
      openingBalancePaise: opening.paise,
      closingBalancePaise: closing.paise,
      currency: source.currency,
      entries,
    },
  };
}

function readMovement(
  raw: string,
  transaction: Mt940Statement['transactions'][number],
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

function balanceOf(tag: Tag | undefined): { date: string; paise: bigint } | undefined {
  const match = tag && BALANCE.exec(tag.data.trim());
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

/** The 1-based numbers of the lines that start with `prefix`. */
function linesStartingWith(text: string, prefix: string): number[] {
  const numbers: number[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.startsWith(prefix)) numbers.push(index + 1);
  });
  return numbers;
}
