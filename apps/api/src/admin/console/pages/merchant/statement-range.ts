import type { Request } from 'express';
import type { PayoutStatus } from '@payout/domain';
import { istMidnight } from '../../views/format.js';

export const DAY_MS = 86_400_000;
/** A statement covers at most a year: longer ones are asked for in parts. */
export const MAX_STATEMENT_DAYS = 366;

/** What a person is told when the dates of a list or statement are not a range. */
export const BAD_RANGE = `The dates must be real days (YYYY-MM-DD), "to" not before "from", at most ${MAX_STATEMENT_DAYS} days.`;

/**
 * The `from` and `to` query dates as [midnight IST of from, midnight IST after to); undefined when neither
 * is given, null when they are not real days, reversed, or more than a year apart.
 */
export function dateRange(req: Request): { from: Date; to: Date } | undefined | null {
  const fromText = queryText(req.query.from);
  const toText = queryText(req.query.to);
  if (!fromText && !toText) return undefined;
  const from = istMidnight(fromText || toText);
  const toDay = istMidnight(toText || fromText);
  if (!from || !toDay) return null;
  const to = new Date(toDay.getTime() + DAY_MS);
  if (to <= from || to.getTime() - from.getTime() > MAX_STATEMENT_DAYS * DAY_MS) return null;
  return { from, to };
}

/** The `status` a merchant's payouts are filtered by, or undefined for all of them. */
export function payoutStatus(value: unknown): PayoutStatus | undefined {
  return value === 'PENDING' || value === 'SUCCESS' || value === 'FAILED' ? value : undefined;
}

/** A query parameter given once, or the empty string. */
export function queryText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
