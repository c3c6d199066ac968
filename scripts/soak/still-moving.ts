import type { PrismaClient } from '@payout/db';
import { formatRupees } from '@payout/domain';
import { DELIBERATELY_PENDING_PAISE } from '../../test/faults/payout-audit.js';

// What the drain waits for, and — when it gives up — what each payout it waited for went through, so a
// soak that ends with payouts still moving says why from its own output (CI keeps nothing else).

/** Payouts not yet decided: PENDING, except the `.55` ones the bank keeps PENDING on purpose once they wait on it. */
export async function countStillMoving(db: PrismaClient): Promise<number> {
  return (await stillMoving(db, 1)).total;
}

interface MovingPayout {
  id: bigint;
  ack_no: string;
  state: string;
  amount_paise: bigint;
  submit_attempts: number;
  inquiry_attempts: number;
  created_at: Date;
  next_check_at: Date | null;
  /** How many payouts are still moving in all, whatever the limit. */
  total: number;
}

/** The one definition of "still moving": the first `limit` such payouts, oldest first, and how many there are. */
async function stillMoving(db: PrismaClient, limit: number): Promise<{ total: number; payouts: MovingPayout[] }> {
  const payouts = await db.$queryRaw<MovingPayout[]>`
    SELECT id, ack_no, state::text AS state, amount_paise, submit_attempts, inquiry_attempts, created_at,
           next_check_at, (count(*) OVER ())::int AS total
      FROM payouts
     WHERE status = 'PENDING'
       AND (amount_paise % 100 <> ${DELIBERATELY_PENDING_PAISE} OR state NOT IN ('AWAITING_RAIL', 'MANUAL_REVIEW'))
     ORDER BY id
     LIMIT ${limit}`;
  return { total: payouts[0]?.total ?? 0, payouts };
}

interface EventRow {
  payout_id: bigint;
  from_state: string | null;
  to_state: string;
  reason: string;
  attempt: number | null;
  actor: string;
  created_at: Date;
}

/**
 * The first `limit` payouts still moving, each as one line of where it stands and one per event, with
 * times in seconds since it was accepted and since `now`: "payout 812 (…, AWAITING_RAIL, ₹101.44): 1
 * submits, 6 inquiries, next check at +95.2 s (in 0.4 s); accepted 97.0 s ago", then one line per event:
 * "  +0.0 s ACCEPTED: accepted; amount reserved from the main wallet [api]".
 */
export async function stillMovingHistories(db: PrismaClient, limit: number, now = new Date()): Promise<string[]> {
  const { payouts } = await stillMoving(db, limit);
  if (payouts.length === 0) return [];
  const events = await db.$queryRaw<EventRow[]>`
    SELECT payout_id, from_state::text AS from_state, to_state::text AS to_state, reason, attempt, actor, created_at
      FROM payout_events
     WHERE payout_id = ANY(${payouts.map((p) => p.id)}::bigint[])
     ORDER BY payout_id, id`;
  const seconds = (from: Date, to: Date) => ((to.getTime() - from.getTime()) / 1000).toFixed(1);
  return payouts.flatMap((p) => {
    const since = (at: Date) => `+${seconds(p.created_at, at)} s`;
    const nextCheck = p.next_check_at
      ? `next check at ${since(p.next_check_at)} (in ${seconds(now, p.next_check_at)} s)`
      : 'no check scheduled';
    return [
      `payout ${p.id} (${p.ack_no}, ${p.state}, ₹${formatRupees(p.amount_paise)}): ${p.submit_attempts} submits, ` +
        `${p.inquiry_attempts} inquiries, ${nextCheck}; accepted ${seconds(p.created_at, now)} s ago`,
      ...events
        .filter((e) => e.payout_id === p.id)
        .map(
          (e) =>
            `  ${since(e.created_at)} ${e.from_state ? `${e.from_state} → ` : ''}${e.to_state}` +
            `${e.attempt === null ? '' : ` (attempt ${e.attempt})`}: ${e.reason} [${e.actor}]`,
        ),
    ];
  });
}
