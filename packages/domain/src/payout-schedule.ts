/**
 * A payout sent at a time the merchant chose (docs/api.md, "Scheduling a payout"; CONTRACT.md "The merchant
 * API beyond the seed"): how far ahead it may be, and how its time is told back to the merchant.
 */

/** The earliest a new payout may be scheduled: a minute after it is accepted. */
export const SCHEDULE_MIN_LEAD_MS = 60_000;

/** The latest: 90 days after it is accepted. */
export const SCHEDULE_MAX_LEAD_MS = 90 * 24 * 60 * 60_000;

/** India keeps one offset all year (no daylight saving), so an IST time is a fixed shift from UTC. */
export const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;

/**
 * Why `scheduledAt` cannot be the time of a payout accepted at `acceptedAt`, or null when it can. Only a new
 * payout is held to the window: a replay of one already scheduled is answered whatever the time now.
 */
export function scheduleWindowProblem(scheduledAt: Date, acceptedAt: Date): string | null {
  const lead = scheduledAt.getTime() - acceptedAt.getTime();
  if (lead < SCHEDULE_MIN_LEAD_MS) return 'ScheduledAt must be at least one minute ahead';
  if (lead > SCHEDULE_MAX_LEAD_MS) return 'ScheduledAt must be at most 90 days ahead';
  return null;
}

/** A moment as India reads it, to the minute: "2026-12-24 10:00 IST" (docs/api.md, "Scheduling a payout"). */
export function istMinute(at: Date): string {
  const local = new Date(at.getTime() + IST_OFFSET_MS).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)} IST`;
}

/** What the pending message of a scheduled payout says before its time (CONTRACT.md's MP006 text). */
export const SCHEDULED_MESSAGE_PREFIX = 'MP006 - Your transaction is scheduled for ';

/** The pending message of a payout waiting for its scheduled time. */
export function scheduledMessage(scheduledAt: Date): string {
  return `${SCHEDULED_MESSAGE_PREFIX}${istMinute(scheduledAt)}`;
}

/** Every text {@link scheduledMessage} can write, for the wire schemas that list the messages. */
export const SCHEDULED_MESSAGE_PATTERN =
  /^MP006 - Your transaction is scheduled for \d{4}-\d{2}-\d{2} \d{2}:\d{2} IST$/;
