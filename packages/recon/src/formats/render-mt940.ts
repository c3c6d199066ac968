import type { Paise } from '@payout/domain';
import type { BankEntry, BankStatement } from './bank-statement.js';

/** What a statement needs to be written in a bank's layout: the fields every layout makes mandatory. */
export type RenderableStatement = Omit<
  BankStatement,
  'format' | 'id' | 'account' | 'sequence' | 'statementDate' | 'openingBalancePaise' | 'closingBalancePaise' | 'entries'
> & {
  id: string;
  account: string;
  sequence: number;
  statementDate: string;
  openingBalancePaise: Paise;
  closingBalancePaise: Paise;
  entries: Omit<BankEntry, 'lineNumber' | 'balanceAfterPaise'>[];
};

// SWIFT MT940 field sizes: :20: 16x, :25: 35x, :28C: 5n[/5n], :86: 6*65x; the `//` bank reference 16x.
const NARRATION_LINE = 65;
const NARRATION_LINES = 6;

/**
 * Writes a statement as SWIFT MT940 (docs/reconciliation-formats.md), CRLF line ends, one `:61:` and
 * `:86:` per entry: a DEBIT is `D`, a CREDIT `C`, a RETURN `RD` (a debit reversed) with type code NRTI; a
 * bank charge has code NCHG, anything else NTRF. The customer reference is NONREF: our 20-character
 * reference does not fit its 16, which is why banks carry it in `:86:`. Throws on a value the layout
 * cannot hold (a programming error of the caller, never bank input).
 */
export function renderMt940(statement: RenderableStatement): string {
  const date = yymmdd(statement.statementDate);
  const lines = [
    `:20:${fit(statement.id, 16, ':20:')}`,
    `:25:${fit(statement.account, 35, ':25:')}`,
    `:28C:${statement.sequence}/1`,
    `:60F:${balance(statement.openingBalancePaise, date, statement.currency)}`,
  ];
  for (const entry of statement.entries) {
    const mark = entry.type === 'DEBIT' ? 'D' : entry.type === 'CREDIT' ? 'C' : 'RD';
    const code = entry.class === 'bank_charge' ? 'NCHG' : entry.type === 'RETURN' ? 'NRTI' : 'NTRF';
    const bankReference = entry.bankReference === undefined ? '' : `//${fit(entry.bankReference, 16, '//', /[\r\n/]/)}`;
    lines.push(`:61:${yymmdd(entry.valueDate)}${mark}${amount(entry.amountPaise)}${code}NONREF${bankReference}`);
    if (entry.narration !== '') lines.push(`:86:${narrationLines(entry.narration).join('\r\n')}`);
  }
  lines.push(`:62F:${balance(statement.closingBalancePaise, date, statement.currency)}`);
  return lines.join('\r\n') + '\r\n-\r\n';
}

function narrationLines(narration: string): string[] {
  if (narration.length > NARRATION_LINE * NARRATION_LINES) {
    throw new RangeError(`an MT940 narration holds at most ${NARRATION_LINE * NARRATION_LINES} characters`);
  }
  const lines: string[] = [];
  for (let i = 0; i < narration.length; i += NARRATION_LINE) lines.push(narration.slice(i, i + NARRATION_LINE));
  return lines;
}

function balance(paise: Paise, date: string, currency: string): string {
  return `${paise < 0n ? 'D' : 'C'}${date}${currency}${amount(paise < 0n ? -paise : paise)}`;
}

/** Paise as an MT940 amount: rupees, a decimal comma, two digits ("101,00"). */
function amount(paise: Paise): string {
  return `${paise / 100n},${(paise % 100n).toString().padStart(2, '0')}`;
}

function yymmdd(date: string): string {
  return date.slice(2, 4) + date.slice(5, 7) + date.slice(8, 10);
}

function fit(value: string, size: number, field: string, forbidden = /[\r\n]/): string {
  if (value.length === 0 || value.length > size || forbidden.test(value)) {
    throw new RangeError(`MT940 ${field} must be 1–${size} characters without ${String(forbidden)}`);
  }
  return value;
}
