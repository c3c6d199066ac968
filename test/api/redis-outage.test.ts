import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { PrivateRedis } from '../support/private-redis.js';

// The API talks to a Redis of this test's own, which the test stops.
const prisma = testPrisma();
const pool = testPool();
let redis: PrivateRedis;
let api: RunningApi;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  api = await startApi(
    loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: redis.url }),
  );
});
afterAll(async () => {
  await api.close();
  await redis.destroy();
  await prisma.$disconnect();
  await pool.end();
});

describe('when Redis is down', () => {
  it('when a payout is posted, then it still answers 202 within a second and the payout is PENDING in PostgreSQL', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const healthy = await call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: '1.00' }) });
    expect(healthy.status).toBe(202);

    await redis.stop();
    const body = impsBody({ Amount: '5.00' });
    const started = performance.now();
    const answer = await call(api, '/api/impspayout', { merchant, body });
    const elapsed = performance.now() - started;

    expect(answer.status).toBe(202);
    expect(answer.json.status).toBe('PENDING');
    expect(elapsed).toBeLessThan(1_000);
    const { rows } = await pool.query(
      'SELECT state, status, amount_paise FROM payouts WHERE merchant_id = $1 AND transaction_id = $2',
      [merchant.merchant.id, body.TransactionID],
    );
    expect(rows).toEqual([{ state: 'ACCEPTED', status: 'PENDING', amount_paise: '500' }]);
  });

  it('when Redis comes back, then the producer reconnects by itself and the next payout is queued', async () => {
    await redis.resume();
    const connection = api.deps.redis;
    if (connection.status !== 'ready') await once(connection, 'ready');

    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '2.00' });
    const answer = await call(api, '/api/impspayout', { merchant, body });
    expect(answer.status).toBe(202);
    const { rows } = await pool.query('SELECT id FROM payouts WHERE merchant_id = $1 AND transaction_id = $2', [
      merchant.merchant.id,
      body.TransactionID,
    ]);
    // Queued right after the answer, in the same turn of the API's event loop.
    const job = await eventually(
      () => api.deps.producer.queue.getJob(`execute-${rows[0].id}`),
      (found) => found !== undefined,
      { timeoutMs: 5_000, what: 'the execute job' },
    );
    expect(job?.data).toEqual({ payoutId: String(rows[0].id) });
  });
});
