import {
  formatStatement,
  renderCamt053,
  renderMt940,
  type RenderableStatement,
  type StatementLine,
} from '@payout/recon';
import { isBookedInBulk } from './magic-values.js';

/**
 * What the statement needs of one reference in the bank's book. The simulator's BankPayout has these
 * fields; `paidAt` and `reversedAt` are used when the book records them, else the day it was accepted.
 */
export interface BookedPayout {
  reference: string;
  amountPaise: bigint;
  status: string;
  utr?: string;
  /** IMPS or UPI: the rail the narration names. */
  mode?: string;
  /** The beneficiary's name, as the bank prints it in the narration. */
  beneficiaryName?: string;
  /** When the bank first accepted the reference (epoch ms). */
  acceptedAt: number;
  /** When the money left (epoch ms), if the book records it. */
  paidAt?: number;
  /** When a paid payout came back (epoch ms), if it did. */
  reversedAt?: number;
  /** The bank's reference of the return, if it gave one. */
  returnUtr?: string;
}

/** A statement's business day is the bank's: India Standard Time. */
const IST_DATE = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

export function istDate(epochMs: number): string {
  return IST_DATE.format(new Date(epochMs));
}

/** A movement of one payout on the account: the canonical line, with what the bank prints beside it. */
type Movement = Omit<StatementLine, 'lineNumber'> & { mode: string; beneficiaryName: string };

/** Every movement of one payout: its debit the day it was paid, and its return the day the money came back. */
function movementsOf(payout: BookedPayout): Movement[] {
  const paid = payout.status === 'SUCCESS' || payout.status === 'REVERSED';
  if (!paid || payout.utr === undefined) return [];
  const paidAt = payout.paidAt ?? payout.acceptedAt;
  const printed = { mode: payout.mode ?? 'IMPS', beneficiaryName: payout.beneficiaryName ?? '' };
  const movements: Movement[] = [
    {
      reference: payout.reference,
      utr: payout.utr,
      amountPaise: payout.amountPaise,
      type: 'DEBIT',
      valueDate: istDate(paidAt),
      ...printed,
    },
  ];
  if (payout.status === 'REVERSED') {
    movements.push({
      reference: payout.reference,
      utr: payout.returnUtr ?? payout.utr,
      amountPaise: payout.amountPaise,
      type: 'RETURN',
      valueDate: istDate(payout.reversedAt ?? paidAt),
      ...printed,
    });
  }
  return movements;
}

/**
 * The bank's statement for one (IST) day as canonical lines (docs/reconciliation.md): our payouts'
 * movements of the day (dayEntries), each named by our reference, or — a bulk debit, which has none — by
 * the bank's own reference. The day's charge is not a movement of ours and is left out.
 */
export function statementFor(book: readonly BookedPayout[], date: string): Omit<StatementLine, 'lineNumber'>[] {
  return canonicalLines(dayEntries(book, date));
}

function canonicalLines(entries: RenderableStatement['entries']): Omit<StatementLine, 'lineNumber'>[] {
  return entries
    .filter((entry) => entry.class !== 'bank_charge')
    .map((entry) => ({
      reference: entry.reference ?? entry.bankReference ?? '',
      utr: entry.utr ?? entry.bankReference ?? '',
      amountPaise: entry.amountPaise,
      type: entry.type === 'RETURN' ? 'RETURN' : 'DEBIT',
      valueDate: entry.valueDate,
    }));
}

function movementsOn(book: readonly BookedPayout[], date: string): Movement[] {
  return book
    .flatMap(movementsOf)
    .filter((movement) => movement.valueDate === date)
    .sort((a, b) => a.reference.localeCompare(b.reference) || a.type.localeCompare(b.type));
}

/**
 * Every movement of our payouts on the day as the bank books it: a line each, except the debits of payouts
 * it books in bulk (`.83`, docs/rail-sim.md), which are one DEBIT of their total after the others.
 */
function dayEntries(book: readonly BookedPayout[], date: string): RenderableStatement['entries'] {
  const movements = movementsOn(book, date);
  const inBulk = (movement: Movement) => movement.type === 'DEBIT' && isBookedInBulk(movement.amountPaise);
  const bulk = movements.filter(inBulk);
  return [
    ...movements.filter((movement) => !inBulk(movement)).map(entryOf),
    ...(bulk.length === 0 ? [] : [bulkEntryOf(bulk, date)]),
  ];
}

/**
 * The one debit of the day's bulk-booked payouts. A bulk debit carries none of our references and no
 * payout's UTR (a UTR names one payment), only the bank's own reference, `BULK` and the day, which is
 * shaped neither like our reference nor like a UTR: recon matches it to a batch by its total
 * (docs/reconciliation.md, "Matching beyond the reference").
 */
function bulkEntryOf(debits: readonly Movement[], date: string): RenderableStatement['entries'][number] {
  return {
    valueDate: date,
    type: 'DEBIT',
    amountPaise: debits.reduce((sum, debit) => sum + debit.amountPaise, 0n),
    bankReference: `BULK${yymmdd(date)}`,
    narration: `BULK/${debits.length} PAYOUTS/${ddmmyyyy(date)}`,
    class: 'payout',
  };
}

function yymmdd(date: string): string {
  return date.slice(2).replaceAll('-', '');
}

function ddmmyyyy(date: string): string {
  return date.split('-').reverse().join('-');
}

/** A simulated bank's settlement account, as its statements show it. */
export interface SettlementAccount {
  number: string;
  /** The branch's IFSC, which MT940 `:25:` writes before the number. */
  ifsc: string;
  openedOn: string;
  floatPaise: bigint;
  /** The day's IMPS charges with their GST (₹5.00 + 18 %). */
  dailyChargePaise: bigint;
}

/**
 * The simulated bank's settlement account (docs/rail-sim.md, "`GET /v1/statement`"). It opened with a float on
 * `openedOn` and has had one statement a day since, numbered from 1, each with the day's charge; so
 * every day's opening balance is the float less every earlier day's charges and payouts, plus earlier
 * returns, and one day's closing balance is the next day's opening. A simulator serving several banks gives
 * each its own number and branch ({@link settlementAccountOf}), the rest alike.
 */
export const SETTLEMENT_ACCOUNT: Readonly<SettlementAccount> = {
  number: '50200012345678',
  ifsc: 'SIMB0000001',
  openedOn: '2000-01-01',
  floatPaise: 1_000_000_000n,
  dailyChargePaise: 590n,
};

/** The settlement account of one simulated bank: its own number and branch. */
export function settlementAccountOf(bank: { account: string; ifsc: string }): SettlementAccount {
  return { ...SETTLEMENT_ACCOUNT, number: bank.account, ifsc: bank.ifsc };
}

const DAY_MS = 86_400_000;

/** The statement number of a day: 1 on the day the account opened. */
export function statementNumber(date: string): number {
  return (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${SETTLEMENT_ACCOUNT.openedOn}T00:00:00Z`)) / DAY_MS + 1;
}

/**
 * The day's statement in the layout banks send (docs/reconciliation-formats.md): the account, the day's
 * number, booked balances that add up, every movement of our payouts with the rail, the UTR and our
 * Ack_no in the narration as an Indian bank writes them, and the day's charge, a small DEBIT.
 */
export function bankStatementFor(
  book: readonly BookedPayout[],
  date: string,
  account: SettlementAccount = SETTLEMENT_ACCOUNT,
): RenderableStatement {
  const sequence = statementNumber(date);
  const earlierCharges = account.dailyChargePaise * BigInt(sequence - 1);
  const earlierMovements = book
    .flatMap(movementsOf)
    .filter((movement) => movement.valueDate < date)
    .reduce((sum, movement) => sum + signed(movement), 0n);
  const openingBalancePaise = account.floatPaise - earlierCharges + earlierMovements;
  const entries: RenderableStatement['entries'] = [
    ...dayEntries(book, date),
    {
      valueDate: date,
      type: 'DEBIT',
      amountPaise: account.dailyChargePaise,
      bankReference: `CHG${date.replaceAll('-', '')}`,
      narration: `IMPS CHARGES INCL GST ${ddmmyyyy(date)}`,
      class: 'bank_charge',
    },
  ];
  const dayMovement = entries.reduce(
    (sum, entry) => sum + (entry.type === 'DEBIT' ? -entry.amountPaise : entry.amountPaise),
    0n,
  );
  return {
    id: `STMT${date.replaceAll('-', '')}`,
    account: account.number,
    sequence,
    statementDate: date,
    openingBalancePaise,
    closingBalancePaise: openingBalancePaise + dayMovement,
    currency: 'INR',
    entries,
  };
}

function signed(movement: Movement): bigint {
  return movement.type === 'DEBIT' ? -movement.amountPaise : movement.amountPaise;
}

/**
 * One movement as the bank prints it: "IMPS/P2A/<UTR>/<Ack_no>/<NAME>" for a payout, "IMPS RETURN/<UTR>/
 * <Ack_no>/CREDIT RETURNED" for money that came back; the bank's own reference is the rail and the UTR.
 */
function entryOf(movement: Movement): RenderableStatement['entries'][number] {
  const rail = movement.mode === 'UPI' ? 'UPI' : 'IMPS';
  const keys = { utr: movement.utr, reference: movement.reference };
  if (movement.type === 'RETURN') {
    return {
      valueDate: movement.valueDate,
      type: 'RETURN',
      amountPaise: movement.amountPaise,
      ...keys,
      bankReference: `RTN${movement.utr}`.slice(0, 16),
      narration: `${rail} RETURN/${movement.utr}/${movement.reference}/CREDIT RETURNED`,
      class: 'return',
    };
  }
  const name = printableName(movement.beneficiaryName);
  return {
    valueDate: movement.valueDate,
    type: 'DEBIT',
    amountPaise: movement.amountPaise,
    ...keys,
    bankReference: `${rail}${movement.utr}`.slice(0, 16),
    narration: `${rail}/P2A/${movement.utr}/${movement.reference}${name === '' ? '' : `/${name}`}`,
    class: 'payout',
  };
}

/** The name as a bank prints it: upper case, letters and spaces only, cut to 35 characters. */
function printableName(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 35)
    .trim();
}

/** The layouts GET /v1/statement exports. */
export const STATEMENT_FORMATS = ['csv', 'mt940', 'camt053'] as const;
export type StatementExportFormat = (typeof STATEMENT_FORMATS)[number];

/** The day's statement as a file: its text, content type and file name. */
export function statementFile(
  book: readonly BookedPayout[],
  date: string,
  format: StatementExportFormat,
  account: SettlementAccount = SETTLEMENT_ACCOUNT,
): StatementExport {
  return renderStatement(bankStatementFor(book, date, account), format, account.ifsc);
}

export interface StatementExport {
  text: string;
  contentType: string;
  fileName: string;
}

/**
 * A day's statement written in one layout. The canonical CSV has our movements only (no account, balances
 * or charge); MT940 writes the branch's IFSC before the account number in `:25:`, as Indian banks do.
 */
export function renderStatement(
  statement: RenderableStatement,
  format: StatementExportFormat,
  branchIfsc: string = SETTLEMENT_ACCOUNT.ifsc,
): StatementExport {
  const date = statement.statementDate;
  switch (format) {
    case 'csv':
      return {
        text: formatStatement(canonicalLines(statement.entries)),
        contentType: 'text/csv',
        fileName: `statement-${date}.csv`,
      };
    case 'mt940':
      return {
        text: renderMt940({ ...statement, account: `${branchIfsc}/${statement.account}` }),
        contentType: 'text/plain',
        fileName: `statement-${date}.mt940`,
      };
    case 'camt053':
      return {
        text: renderCamt053(statement, '08'),
        contentType: 'application/xml',
        fileName: `statement-${date}.camt053.xml`,
      };
  }
}
