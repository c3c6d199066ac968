import type pg from 'pg';
import {
  claimWebhookAttempt,
  finishWebhookAttempt,
  type PayoutSummary,
  type PrismaClient,
  type WebhookDeliveryNext,
} from '@payout/db';
import { makeMerchant } from '../support/factories.js';
import { payoutAtTheRail, registerEndpoint, settle } from '../webhooks/webhook-fixtures.js';

/**
 * A day of one merchant for the day page (docs/operations.md, "The day at a glance"): UPI, three payouts
 * settled (two SUCCESS, one FAILED); IMPS, one settled SUCCESS and three still at the rail, accepted just
 * now, 10 minutes ago and 3 hours ago. Then three UPI payouts of merchants with webhook endpoints, settled
 * SUCCESS, whose deliveries did not get through: one given up, one failing (due again), one held. Ten
 * accepted, seven settled, six of them SUCCESS. The file's worker must not sweep (the deliveries are moved
 * here, by hand): start it with a long SWEEP_INTERVAL_MS.
 */
export async function aDayOfPayouts(db: PrismaClient, pool: pg.Pool): Promise<void> {
  const merchant = await makeMerchant(db, { balance: '1000.00' });
  const upi = await Promise.all([1, 2, 3].map(() => payoutAtTheRail(db, merchant, { mode: 'UPI' })));
  await settle(db, upi[0]!, 'SUCCESS');
  await settle(db, upi[1]!, 'SUCCESS');
  await settle(db, upi[2]!, 'FAILED');
  const imps = await Promise.all([1, 2, 3, 4].map(() => payoutAtTheRail(db, merchant, { mode: 'IMPS' })));
  await settle(db, imps[0]!, 'SUCCESS');
  await acceptedAgo(pool, imps[2]!, '10 minutes');
  await acceptedAgo(pool, imps[3]!, '3 hours');

  const failing = await makeMerchant(db, { balance: '1000.00' });
  await registerEndpoint(db, failing, 'https://failing.example/hooks');
  await deliveryEndsIn(db, await payoutAtTheRail(db, failing), { status: 'FAILED' });
  await deliveryEndsIn(db, await payoutAtTheRail(db, failing), {
    status: 'PENDING',
    nextAttemptAt: new Date(Date.now() + 3_600_000),
  });
  const held = await makeMerchant(db, { balance: '1000.00' });
  await registerEndpoint(db, held, 'https://held.example/hooks');
  await deliveryEndsIn(db, await payoutAtTheRail(db, held), {
    status: 'HELD',
    disabledReason: 'failed over its whole retry window',
  });
}

/** Settles the payout SUCCESS, then makes its delivery's first attempt fail with a 503 and end as `next`. */
async function deliveryEndsIn(db: PrismaClient, payout: PayoutSummary, next: WebhookDeliveryNext): Promise<void> {
  const { webhookDeliveryId } = await settle(db, payout, 'SUCCESS');
  if (!(await claimWebhookAttempt(db, webhookDeliveryId!, 1, new Date(Date.now() + 60_000))))
    throw new Error('the delivery could not be claimed');
  const outcome = { durationMs: 12, statusCode: 503, error: null };
  if (!(await finishWebhookAttempt(db, webhookDeliveryId!, 1, outcome, next)))
    throw new Error('the delivery did not move on');
}

/** Moves a payout's acceptance back in time, as if it had waited at the rail that long. */
async function acceptedAgo(pool: pg.Pool, payout: PayoutSummary, interval: string): Promise<void> {
  await pool.query(`UPDATE payouts SET created_at = now() - $2::interval WHERE id = $1`, [payout.id, interval]);
}
