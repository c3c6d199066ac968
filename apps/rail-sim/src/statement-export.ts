import type { RequestHandler } from 'express';
import {
  formatStatement,
  renderCamt053,
  renderMt940,
  type RenderableStatement,
  type StatementLine,
} from '@payout/recon';

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
 * The bank's statement for one (IST) day, as real banks send it every morning (docs/reconciliation.md):
 * a DEBIT line for every payout the bank paid that day — a payout later reversed was still paid — and a
 * RETURN line for every payout whose money came back that day. Pending and failed references move no
 * money and are not on it.
 */
export function statementFor(book: readonly BookedPayout[], date: string): Omit<StatementLine, 'lineNumber'>[] {
  return movementsOn(book, date).map(({ reference, utr, amountPaise, type, valueDate }) => ({
    reference,
    utr,
    amountPaise,
    type,
    valueDate,
  }));
}

function movementsOn(book: readonly BookedPayout[], date: string): Movement[] {
  return book
    .flatMap(movementsOf)
    .filter((movement) => movement.valueDate === date)
    .sort((a, b) => a.reference.localeCompare(b.reference) || a.type.localeCompare(b.type));
}

/**
 * The simulated bank's settlement account (docs/rail-sim.md, "`GET /v1/statement`"). It opened with a float on
 * `openedOn` and has had one statement a day since, numbered from 1, each with the day's charge; so
 * every day's opening balance is the float less every earlier day's charges and payouts, plus earlier
 * returns, and one day's closing balance is the next day's opening.
 */
export const SETTLEMENT_ACCOUNT = {
  number: '50200012345678',
  /** The branch's IFSC, which MT940 `:25:` writes before the number. */
  ifsc: 'SIMB0000001',
  openedOn: '2000-01-01',
  floatPaise: 1_000_000_000n,
  /** The day's IMPS charges with their GST (₹5.00 + 18 %). */
  dailyChargePaise: 590n,
} as const;

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
export function bankStatementFor(book: readonly BookedPayout[], date: string): RenderableStatement {
  const sequence = statementNumber(date);
  const earlierCharges = SETTLEMENT_ACCOUNT.dailyChargePaise * BigInt(sequence - 1);
  const earlierMovements = book
    .flatMap(movementsOf)
    .filter((movement) => movement.valueDate < date)
    .reduce((sum, movement) => sum + signed(movement), 0n);
  const openingBalancePaise = SETTLEMENT_ACCOUNT.floatPaise - earlierCharges + earlierMovements;
  const entries: RenderableStatement['entries'] = [
    ...movementsOn(book, date).map(entryOf),
    {
      valueDate: date,
      type: 'DEBIT',
      amountPaise: SETTLEMENT_ACCOUNT.dailyChargePaise,
      bankReference: `CHG${date.replaceAll('-', '')}`,
      narration: `IMPS CHARGES INCL GST ${date.split('-').reverse().join('-')}`,
      class: 'bank_charge',
    },
  ];
  const dayMovement = entries.reduce(
    (sum, entry) => sum + (entry.type === 'DEBIT' ? -entry.amountPaise : entry.amountPaise),
    0n,
  );
  return {
    id: `STMT${date.replaceAll('-', '')}`,
    account: SETTLEMENT_ACCOUNT.number,
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
): { text: string; contentType: string; fileName: string } {
  switch (format) {
    case 'csv':
      return {
        text: formatStatement(statementFor(book, date)),
        contentType: 'text/csv',
        fileName: `statement-${date}.csv`,
      };
    case 'mt940':
      return {
        text: renderMt940({
          ...bankStatementFor(book, date),
          account: `${SETTLEMENT_ACCOUNT.ifsc}/${SETTLEMENT_ACCOUNT.number}`,
        }),
        contentType: 'text/plain',
        fileName: `statement-${date}.mt940`,
      };
    case 'camt053':
      return {
        text: renderCamt053(bankStatementFor(book, date), '08'),
        contentType: 'application/xml',
        fileName: `statement-${date}.camt053.xml`,
      };
  }
}

const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** YYYY-MM-DD of a day the calendar has (not 2026-02-30), so the statement's dates are real ones. */
function isCalendarDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return DATE.test(date) && !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

/** The book with every change that has fallen due applied (the simulator applies them when asked). */
function refreshed(book: { all(): readonly BookedPayout[]; lookup(reference: string): unknown }): BookedPayout[] {
  for (const payout of book.all()) book.lookup(payout.reference);
  return [...book.all()];
}

function isFormat(value: unknown): value is StatementExportFormat {
  return STATEMENT_FORMATS.includes(value as StatementExportFormat);
}

/**
 * `GET /v1/statement?date=YYYY-MM-DD&format=csv|mt940|camt053` (today in IST, the canonical CSV that
 * `pnpm cli recon statement` reads, without them): the day's statement as a file.
 */
export function statementHandler(book: {
  all(): readonly BookedPayout[];
  lookup(reference: string): unknown;
}): RequestHandler {
  return (req, res) => {
    const date = typeof req.query.date === 'string' ? req.query.date : istDate(Date.now());
    const format = req.query.format ?? 'csv';
    if (!isCalendarDate(date)) {
      res.status(400).json({ error: 'BAD_REQUEST', message: 'date must be YYYY-MM-DD' });
      return;
    }
    if (date < SETTLEMENT_ACCOUNT.openedOn) {
      res.status(400).json({ error: 'BAD_REQUEST', message: `the account opened on ${SETTLEMENT_ACCOUNT.openedOn}` });
      return;
    }
    if (!isFormat(format)) {
      res.status(400).json({ error: 'BAD_REQUEST', message: `format must be one of ${STATEMENT_FORMATS.join(', ')}` });
      return;
    }
    const file = statementFile(refreshed(book), date, format);
    res
      .status(200)
      .type(file.contentType)
      .set('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .send(file.text);
  };
}
