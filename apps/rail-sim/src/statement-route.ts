import type { RequestHandler } from 'express';
import {
  istDate,
  statementFile,
  STATEMENT_FORMATS,
  type BookedPayout,
  type SettlementAccount,
  type StatementExportFormat,
} from './statement-export.js';

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
export function statementHandler(
  book: {
    all(): readonly BookedPayout[];
    lookup(reference: string): unknown;
  },
  account: SettlementAccount,
): RequestHandler {
  return (req, res) => {
    const date = typeof req.query.date === 'string' ? req.query.date : istDate(Date.now());
    const format = req.query.format ?? 'csv';
    if (!isCalendarDate(date)) {
      res.status(400).json({ error: 'BAD_REQUEST', message: 'date must be YYYY-MM-DD' });
      return;
    }
    if (date < account.openedOn) {
      res.status(400).json({ error: 'BAD_REQUEST', message: `the account opened on ${account.openedOn}` });
      return;
    }
    if (!isFormat(format)) {
      res.status(400).json({ error: 'BAD_REQUEST', message: `format must be one of ${STATEMENT_FORMATS.join(', ')}` });
      return;
    }
    const file = statementFile(refreshed(book), date, format, account);
    res
      .status(200)
      .type(file.contentType)
      .set('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .send(file.text);
  };
}
