import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody } from '../support/api.js';
import { PrivateRedis } from '../support/private-redis.js';

// A dependency that hangs (answers nothing, closes nothing) must cost a request its deadline, not the
// request: Redis commands have one (REDIS_COMMAND_TIMEOUT_MS), PostgreSQL statements and lock waits have
// theirs (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_LOCK_TIMEOUT_MS). See docs/operations.md.
const REDIS_DEADLINE_MS = 300;
const LOCK_DEADLINE_MS = 400;
// Generous for a loaded machine, and still far below a hang.
const ANSWER_BOUND_MS = 2_500;

const prisma = testPrisma();
const pool = testPool();
let redis: PrivateRedis;
let api: RunningApi;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  api = await startApi(
    loadConfig(apiConfigSchema, {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: String(REDIS_DEADLINE_MS),
      DATABASE_LOCK_TIMEOUT_MS: String(LOCK_DEADLINE_MS),
    }),
  );
});
afterAll(async () => {
  redis.thaw();
  await api.close();
  await redis.destroy();
  await prisma.$disconnect();
  await pool.end();
});

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

describe('when Redis hangs (SIGSTOP)', () => {
  it('then payouts are accepted within the deadline, counted by the in-memory limiter, and /readyz stays 200 naming Redis', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    expect((await call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: '1.00' }) })).status).toBe(202);

    redis.freeze();
    try {
      const body = impsBody({ Amount: '2.00' });
      const first = await timed(() => call(api, '/api/impspayout', { merchant, body }));
      expect(first.result.status).toBe(202);
      expect(first.result.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(first.ms).toBeLessThan(ANSWER_BOUND_MS);
      // The limiter no longer waits on Redis at all once it has failed once.
      const second = await timed(() => call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: '3.00' }) }));
      expect(second.result.status).toBe(202);
      expect(second.ms).toBeLessThan(ANSWER_BOUND_MS);

      const ready = await timed(() => call(api, '/readyz'));
      expect(ready.ms).toBeLessThan(ANSWER_BOUND_MS);
      expect(ready.result.status).toBe(200);
      expect(ready.result.json).toMatchObject({ status: 'OK', checks: { postgres: 'ok' }, degraded: ['redis'] });

      const { rows } = await pool.query(
        'SELECT state, amount_paise FROM payouts WHERE merchant_id = $1 AND transaction_id = $2',
        [merchant.merchant.id, body.TransactionID],
      );
      expect(rows).toEqual([{ state: 'ACCEPTED', amount_paise: '200' }]);
    } finally {
      redis.thaw();
    }
  });
});

describe('when a wallet row is locked by another transaction', () => {
  it('then the payout answers 503 "retry with the same TransactionID" within the lock deadline, reserves nothing, and the retry succeeds', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '10.00' });
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM wallets WHERE merchant_id = $1 FOR UPDATE', [merchant.merchant.id]);

      const locked = await timed(() => call(api, '/api/impspayout', { merchant, body }));
      expect(locked.result.status).toBe(503);
      expect(locked.result.json).toEqual({
        error: true,
        status_code: 503,
        status: 'SERVICE UNAVAILABLE',
        message: 'The service is temporarily unavailable. Please retry with the same TransactionID.',
      });
      expect(locked.ms).toBeGreaterThanOrEqual(LOCK_DEADLINE_MS - 50);
      expect(locked.ms).toBeLessThan(ANSWER_BOUND_MS);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }

    const { rows: payouts } = await pool.query(
      'SELECT id FROM payouts WHERE merchant_id = $1 AND transaction_id = $2',
      [merchant.merchant.id, body.TransactionID],
    );
    expect(payouts).toEqual([]);
    const { rows: wallets } = await pool.query(
      'SELECT available_paise, reserved_paise FROM wallets WHERE merchant_id = $1',
      [merchant.merchant.id],
    );
    expect(wallets).toEqual([{ available_paise: '10000', reserved_paise: '0' }]);

    const retried = await call(api, '/api/impspayout', { merchant, body });
    expect(retried.status).toBe(202);
  });
});
