import type { RequestHandler } from 'express';
import { formatStatement, type StatementLine } from '@payout/recon';

/**
 * What the statement needs of one reference in the bank's book. The simulator's BankPayout has these
 * fields; `paidAt` and `reversedAt` are used when the book records them, else the day it was accepted.
 */
export interface BookedPayout {
  reference: string;
  amountPaise: bigint;
  status: string;
  utr?: string;
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

/**
 * The bank's statement for one (IST) day, as real banks send it every morning (docs/reconciliation.md):
 * a DEBIT line for every payout the bank paid that day — a payout later reversed was still paid — and a
 * RETURN line for every payout whose money came back that day. Pending and failed references move no
 * money and are not on it.
 */
export function statementFor(book: readonly BookedPayout[], date: string): Omit<StatementLine, 'lineNumber'>[] {
  const lines: Omit<StatementLine, 'lineNumber'>[] = [];
  for (const payout of book) {
    const paid = payout.status === 'SUCCESS' || payout.status === 'REVERSED';
    if (!paid || payout.utr === undefined) continue;
    const paidAt = payout.paidAt ?? payout.acceptedAt;
    if (istDate(paidAt) === date) {
      lines.push({
        reference: payout.reference,
        utr: payout.utr,
        amountPaise: payout.amountPaise,
        type: 'DEBIT',
        valueDate: date,
      });
    }
    if (payout.status === 'REVERSED' && istDate(payout.reversedAt ?? paidAt) === date) {
      lines.push({
        reference: payout.reference,
        utr: payout.returnUtr ?? payout.utr,
        amountPaise: payout.amountPaise,
        type: 'RETURN',
        valueDate: date,
      });
    }
  }
  return lines.sort((a, b) => a.reference.localeCompare(b.reference) || a.type.localeCompare(b.type));
}

const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** The book with every change that has fallen due applied (the simulator applies them when asked). */
function refreshed(book: { all(): readonly BookedPayout[]; lookup(reference: string): unknown }): BookedPayout[] {
  for (const payout of book.all()) book.lookup(payout.reference);
  return [...book.all()];
}

/**
 * `GET /v1/statement?date=YYYY-MM-DD` (today in IST without one): the day's statement as the canonical
 * CSV that `pnpm cli recon statement` reads.
 */
export function statementHandler(book: {
  all(): readonly BookedPayout[];
  lookup(reference: string): unknown;
}): RequestHandler {
  return (req, res) => {
    const date = typeof req.query.date === 'string' ? req.query.date : istDate(Date.now());
    if (!DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
      res.status(400).json({ error: 'BAD_REQUEST', message: 'date must be YYYY-MM-DD' });
      return;
    }
    res
      .status(200)
      .type('text/csv')
      .set('Content-Disposition', `attachment; filename="statement-${date}.csv"`)
      .send(formatStatement(statementFor(refreshed(book), date)));
  };
}
