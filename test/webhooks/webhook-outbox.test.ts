import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptPayouts,
  findPayoutByTransactionId,
  settleFailure,
  settleSuccess,
  updateQueueSettings,
  type PrismaClient,
} from '@payout/db';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { upiInstruction } from '../support/payout-instructions.js';
import { payoutAtTheRail, registerEndpoint, settle } from './webhook-fixtures.js';

// The settlement statement writes the merchant's notification (the outbox row) itself: the two commit or
// roll back together, so a settled payout can never be left without its webhook.

let db: PrismaClient;
let pool: pg.Pool;
beforeAll(() => {
  db = testPrisma();
  pool = testPool();
});
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

const deliveriesOf = async (payoutId: bigint) =>
  (await pool.query('SELECT cause, status, attempts FROM webhook_deliveries WHERE payout_id = $1', [payoutId])).rows;

const stateOf = async (payoutId: bigint) =>
  (await pool.query<{ state: string }>('SELECT state FROM payouts WHERE id = $1', [payoutId])).rows[0]!.state;

class Rollback extends Error {}

describe('settlement and its webhook outbox row', () => {
  it.each(['SUCCESS', 'FAILED'] as const)(
    'when a %s settlement rolls back, then neither the settlement nor its delivery exists, and while it is open another connection sees neither',
    async (outcome) => {
      const merchant = await makeMerchant(db, { balance: '1000.00' });
      await registerEndpoint(db, merchant, 'https://acme.example/hooks');
      const payout = await payoutAtTheRail(db, merchant);

      await expect(
        db.$transaction(async (tx) => {
          const result =
            outcome === 'SUCCESS'
              ? await settleSuccess(tx, payout.id, 'UTR1', { reason: 'test', actor: 'test' })
              : await settleFailure(tx, payout.id, 'RAIL_REJECTED', { reason: 'test', actor: 'test' });
          expect(result.moved).toBe(true);
          expect(result.webhookDeliveryId).not.toBeNull();
          // Inside the transaction both are there; outside, neither yet.
          expect(await tx.webhookDelivery.count({ where: { payoutId: payout.id } })).toBe(1);
          expect(await deliveriesOf(payout.id)).toEqual([]);
          expect(await stateOf(payout.id)).toBe('SUBMITTING');
          throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);

      expect(await stateOf(payout.id)).toBe('SUBMITTING');
      expect(await deliveriesOf(payout.id)).toEqual([]);
      await expectBooksBalanced(pool, merchant.merchant.id);
    },
  );

  it.each(['SUCCESS', 'FAILED'] as const)(
    'when a %s settlement commits, then exactly one pending settlement delivery is there with it, and settling again adds none',
    async (outcome) => {
      const merchant = await makeMerchant(db, { balance: '1000.00' });
      await registerEndpoint(db, merchant, 'https://acme.example/hooks');
      const payout = await payoutAtTheRail(db, merchant);

      const first = await settle(db, payout, outcome);
      const again = await settle(db, payout, outcome);
      const other = await settle(db, payout, outcome === 'SUCCESS' ? 'FAILED' : 'SUCCESS');

      expect(first).toMatchObject({ moved: true, from: 'SUBMITTING' });
      expect(typeof first.webhookDeliveryId).toBe('bigint');
      expect(again).toEqual({ moved: false, from: outcome, webhookDeliveryId: null });
      expect(other.moved).toBe(false);
      expect((await findPayoutByTransactionId(db, merchant.merchant.id, payout.transactionId))?.status).toBe(outcome);
      expect(await deliveriesOf(payout.id)).toEqual([{ cause: 'SETTLEMENT', status: 'PENDING', attempts: 0 }]);
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: first.webhookDeliveryId! } });
      expect(row.nextAttemptAt).not.toBeNull();
      await expectBooksBalanced(pool, merchant.merchant.id);
    },
  );

  it('when the merchant has no webhook URL, then the settlement records no delivery', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutAtTheRail(db, merchant);
    const result = await settle(db, payout, 'SUCCESS');
    expect(result).toMatchObject({ moved: true, webhookDeliveryId: null });
    expect(await deliveriesOf(payout.id)).toEqual([]);
  });

  it('when a second settlement delivery is written for a payout, then the database refuses it', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, 'https://acme.example/hooks');
    const payout = await payoutAtTheRail(db, merchant);
    await settle(db, payout, 'SUCCESS');
    await expect(
      pool.query(
        `INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, next_attempt_at, requested_by)
         VALUES ($1, $2, 'SETTLEMENT', now(), 'test')`,
        [merchant.merchant.id, payout.id],
      ),
    ).rejects.toThrow(/webhook_deliveries_one_settlement_per_payout/);
    await expect(
      pool.query(`UPDATE webhook_deliveries SET status = 'DELIVERED' WHERE payout_id = $1`, [payout.id]),
    ).rejects.toThrow(/webhook_deliveries_/);
  });
});

describe("the queue's expiry and its webhook outbox row", () => {
  it('when a queued payout waits past its window, then it fails with one settlement delivery if the merchant has an endpoint and none if not, and nothing moves in the books', async () => {
    const withEndpoint = await makeMerchant(db, { balance: '0' });
    const without = await makeMerchant(db, { balance: '0' });
    await registerEndpoint(db, withEndpoint, 'https://acme.example/hooks');
    const queued = [];
    for (const merchant of [withEndpoint, without]) {
      await updateQueueSettings(db, merchant.mid, { queueIfLowBalance: true });
      const [accepted] = await acceptPayouts(db, [upiInstruction(merchant.merchant.id, 10_000n)]);
      expect(accepted?.payout.state).toBe('QUEUED');
      queued.push(accepted!.payout.id);
      // Accepted past its merchant's window, as far as the expiry is concerned.
      await pool.query(`UPDATE payouts SET created_at = now() - interval '73 hours' WHERE id = $1`, [
        accepted!.payout.id,
      ]);
    }

    for (const merchant of [withEndpoint, without]) {
      const { rows } = await pool.query<{ expired: number }>('SELECT expire_queued_payouts($1) AS expired', [
        merchant.merchant.id,
      ]);
      expect(rows[0]!.expired).toBe(1);
    }

    expect(await stateOf(queued[0]!)).toBe('FAILED');
    expect(await stateOf(queued[1]!)).toBe('FAILED');
    expect(await deliveriesOf(queued[0]!)).toEqual([{ cause: 'SETTLEMENT', status: 'PENDING', attempts: 0 }]);
    expect(await deliveriesOf(queued[1]!)).toEqual([]);
    for (const merchant of [withEndpoint, without]) await expectBooksBalanced(pool, merchant.merchant.id);
  });
});

describe("the outbox's writers, one per subject", () => {
  it('when the sources and the database functions are read, then only enqueue_payout_webhook and enqueue_downtime_webhooks record a delivery', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const writers: string[] = [];
    for (const dir of ['apps', 'packages']) {
      for (const file of await readdir(root + dir, { recursive: true })) {
        if (/node_modules|generated|dist\//.test(file) || !/\.(ts|sql)$/.test(file) || /\.test\.ts$/.test(file))
          continue;
        if (/INSERT\s+INTO\s+webhook_deliveries/i.test(await readFile(`${root}${dir}/${file}`, 'utf8'))) {
          writers.push(`${dir}/${file}`);
        }
      }
    }
    expect(writers).toEqual([
      'packages/db/sql/functions/enqueue_downtime_webhooks.sql',
      'packages/db/sql/functions/enqueue_payout_webhook.sql',
    ]);
    const { rows } = await pool.query<{ proname: string }>(
      `SELECT proname FROM pg_proc
        WHERE pronamespace = 'public'::regnamespace AND prosrc ~* 'INSERT\\s+INTO\\s+webhook_deliveries'`,
    );
    expect(rows.map((r) => r.proname).sort()).toEqual(['enqueue_downtime_webhooks', 'enqueue_payout_webhook']);
  });
});
