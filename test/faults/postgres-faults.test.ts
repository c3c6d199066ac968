import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '@payout/api';
import type { RunningWorker } from '@payout/worker';
import { call, impsBody, losslessBody, upiBody, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectAllClear, PATIENT_STATEMENTS, useFaultStack } from './fault-stack.js';
import { TcpProxy } from './tcp-proxy.js';

// PostgreSQL is the source of truth, so it crashing must cost availability only: requests answered 503
// while it is away, and nothing committed lost or done twice once it is back. The bank answers slowly, so
// settlement is under way when the database goes.
const RAIL_LATENCY_MS = 500;
const stack = useFaultStack({ railSim: { latencyMs: RAIL_LATENCY_MS } });
let api: RunningApi;
let worker: RunningWorker;

beforeAll(async () => {
  // Statements held behind a test's lock stay there until the test acts, however slow the machine: the
  // API's own lock and statement time-outs are shown in test/faults/hung-dependencies.test.ts.
  api = await stack.current.startApi({ ...PATIENT_STATEMENTS, DATABASE_CONNECT_TIMEOUT_MS: '1000' });
  // Short rail time-outs: a payout whose settlement was lost is due for its inquiry a few seconds later.
  worker = await stack.current.startWorker({ RAIL_CONNECT_TIMEOUT_MS: '200', RAIL_RESPONSE_TIMEOUT_MS: '1000' });
});

type Body = ReturnType<typeof impsBody> | ReturnType<typeof upiBody>;
const pathOf = (body: Body) => ('Upi' in body ? '/api/payout' : '/api/impspayout');

async function send(merchant: TestMerchant, body: Body): Promise<ApiResponse & { ms: number }> {
  const started = performance.now();
  const answer = await call(api, pathOf(body), { merchant, body });
  return { ...answer, ms: performance.now() - started };
}

function bodyOf(i: number): Body {
  const amount = i % 7 === 3 ? `${i + 1}.11` : `${i + 1}.00`;
  return i % 2 ? impsBody({ Amount: amount }) : upiBody({ Amount: amount });
}

describe('PostgreSQL faults', () => {
  it('when PostgreSQL crashes and restarts while payouts are being accepted, then each answer is 202 or a fast 503, a retry of a 503 finds or makes one payout, and every payout is decided once', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '100000.00' });
    const sent: { body: Body; answer: ApiResponse & { ms: number } }[] = [];
    let crashed: Promise<void> | undefined;
    let restarted: Promise<void> | undefined;
    let next = 0;

    // Four clients of the merchant posting one after another; the database crashes after the 15th answer and
    // comes back after the 15th answer given while it was down.
    let downAnswers = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < 80) {
          const body = bodyOf(next++);
          const answer = await send(merchant, body);
          sent.push({ body, answer });
          if (sent.length === 15) crashed = s.postgres.stop('immediate');
          if (crashed && !s.postgres.running && ++downAnswers === 15)
            restarted = crashed.then(() => s.postgres.resume());
        }
      }),
    );
    await crashed;
    await restarted;

    // The merchant retries every request not accepted with the same request: the retry either finds the
    // payout a lost answer hid (already decided, perhaps) or records it now — one payout either way.
    const refused = sent.filter((x) => x.answer.status !== 202);
    expect(refused.length).toBeGreaterThan(0); // the crash did hit requests
    for (const { body } of refused) {
      const retry = await send(merchant, body);
      expect([200, 202, 400]).toContain(retry.status);
      expect(String(losslessBody(retry).TransactionID)).toBe(body.TransactionID);
      expect(retry.json.Ack_no).toMatch(/^[A-Z0-9]{12,20}$/);
    }
    const { rows } = await s.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM payouts WHERE merchant_id = $1',
      [merchant.merchant.id],
    );
    expect(rows[0]!.n).toBe(sent.length);
    await expectAllClear(s);

    // What the merchant saw while the database was away: the contract's 503, quickly — never a 500.
    const unexpected = refused
      .filter(
        ({ answer }) => answer.status !== 503 || answer.json.status !== 'SERVICE UNAVAILABLE' || answer.ms > 5_000,
      )
      .map(({ answer }) => ({ status: answer.status, body: answer.json, ms: Math.round(answer.ms) }));
    expect(unexpected).toEqual([]);
  });

  it('when PostgreSQL crashes under an accept that is waiting inside the database, then the merchant gets the contract 503 and a retry records the payout once', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '5.00' });

    // The merchant's wallet row is held by another transaction, so the accept's statement is certainly
    // running on its connection when the server goes.
    const blocker = await s.pool.connect();
    blocker.on('error', () => undefined); // it dies with the server
    let answer: ApiResponse & { ms: number };
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM wallets WHERE merchant_id = $1 FOR UPDATE', [merchant.merchant.id]);
      const pending = send(merchant, body);
      await eventually(
        () =>
          s.pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%accept_payouts%'",
          ),
        (r) => r.rows[0]!.n === 1,
        { what: 'the accept to wait for the wallet lock' },
      );
      await s.postgres.stop('immediate');
      answer = await pending;
    } finally {
      blocker.release(true);
      await s.postgres.resume();
    }

    const retry = await send(merchant, body);
    expect(retry.status).toBe(202);
    const { rows } = await s.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM payouts WHERE merchant_id = $1 AND transaction_id = $2',
      [merchant.merchant.id, body.TransactionID],
    );
    expect(rows[0]!.n).toBe(1);
    await expectAllClear(s);
    expect({ status: answer.status, body: answer.json }).toMatchObject({
      status: 503,
      body: { error: true, status_code: 503, status: 'SERVICE UNAVAILABLE' },
    });
  });

  it('when the connection to PostgreSQL is reset under an accept, then the merchant gets the contract 503 and a retry finds the one payout', async () => {
    const s = stack.current;
    const proxy = await TcpProxy.start(s.postgres.port);
    const proxied = new URL(s.postgres.databaseUrl);
    proxied.port = String(proxy.port);
    const viaProxy = await s.startApi({
      ...PATIENT_STATEMENTS,
      DATABASE_URL: proxied.toString(),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });
    const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
    const body = upiBody({ Amount: '6.00' });
    const blocker = await s.pool.connect();
    blocker.on('error', () => undefined);
    let answer: ApiResponse;
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM wallets WHERE merchant_id = $1 FOR UPDATE', [merchant.merchant.id]);
      const pending = call(viaProxy, '/api/payout', { merchant, body });
      await eventually(
        () =>
          s.pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%accept_payouts%'",
          ),
        (r) => r.rows[0]!.n === 1,
        { what: 'the accept to wait for the wallet lock' },
      );
      proxy.reset();
      answer = await pending;
    } finally {
      // The server never noticed its client go: the accept goes through once the lock is free.
      await blocker.query('ROLLBACK');
      blocker.release();
      await proxy.close();
    }

    const retry = await call(api, '/api/payout', { merchant, body });
    expect(retry.status).toBe(202);
    const { rows } = await s.pool.query<{ ack_no: string }>(
      'SELECT ack_no FROM payouts WHERE merchant_id = $1 AND transaction_id = $2',
      [merchant.merchant.id, body.TransactionID],
    );
    expect(rows).toEqual([{ ack_no: retry.json.Ack_no }]);
    await expectAllClear(s);
    expect({ status: answer.status, body: answer.json }).toMatchObject({
      status: 503,
      body: { error: true, status_code: 503, status: 'SERVICE UNAVAILABLE' },
    });
  });

  it('when PostgreSQL is up but still refuses connections (recovering, SQLSTATE 57P03), then payouts and lookups answer the contract 503', async () => {
    const s = stack.current;
    const known = await makeMerchant(s.prisma, { balance: '100.00' });
    const fresh = await makeMerchant(s.prisma, { balance: '100.00' });
    // The first merchant's credentials are cached, so its payout reaches the accept statement; the second
    // one's lookup is the one to fail.
    expect((await call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant: known })).status).toBe(
      200,
    );
    const body = impsBody({ Amount: '7.00' });

    await s.postgres.stop('fast');
    await s.postgres.resumeRefusingConnections();
    let answers: ApiResponse[];
    try {
      answers = [
        await call(api, '/api/impspayout', { merchant: known, body }),
        await call(api, '/api/impspayout', { merchant: fresh, body: impsBody({ Amount: '8.00' }) }),
        await call(api, `/api/check_payout_status?TransactionID=${body.TransactionID}`, { merchant: known }),
      ];
    } finally {
      await s.postgres.stop('fast');
      await s.postgres.resume();
    }

    expect((await call(api, '/api/impspayout', { merchant: known, body })).status).toBe(202);
    await expectAllClear(s);
    expect(answers.map((a) => ({ status: a.status, body: a.json }))).toEqual(
      answers.map(() => ({
        status: 503,
        body: expect.objectContaining({ error: true, status_code: 503, status: 'SERVICE UNAVAILABLE' }),
      })),
    );
  });

  it('when PostgreSQL crashes while the bank is paying, then each payout the bank paid settles SUCCESS once after the restart', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '10000.00' });
    const before = s.railSim.stats();
    const bodies = Array.from({ length: 12 }, (_, i) =>
      i % 2 ? impsBody({ Amount: '3.00' }) : upiBody({ Amount: '4.00' }),
    );
    const answers = await Promise.all(bodies.map((body) => send(merchant, body)));
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 202));

    // Every instruction has reached the bank (paid at once; the answers are held back by the latency):
    // the database goes before a single answer can be recorded.
    await eventually(
      () => Promise.resolve(s.railSim.stats().payments - before.payments),
      (paid) => paid === bodies.length,
      { what: 'the bank to pay all 12' },
    );
    let failedJobs = 0;
    const countFailure = () => failedJobs++;
    worker.worker.on('failed', countFailure);
    await s.postgres.stop('immediate');
    try {
      // Each settlement fails with the database away; its job fails and is retried later.
      await eventually(
        () => Promise.resolve(failedJobs),
        (n) => n >= bodies.length,
        { timeoutMs: 10_000, what: 'every settlement to fail while PostgreSQL is down' },
      );
    } finally {
      worker.worker.off('failed', countFailure);
      await s.postgres.resume();
    }

    const audit = await expectAllClear(s);
    expect(s.railSim.stats().payments - before.payments).toBe(bodies.length);
    const { rows } = await s.pool.query<{ state: string; n: number }>(
      'SELECT state::text, count(*)::int AS n FROM payouts WHERE merchant_id = $1 GROUP BY state',
      [merchant.merchant.id],
    );
    expect(rows).toEqual([{ state: 'SUCCESS', n: bodies.length }]);
    expect(audit.breaches).toEqual([]);
  });
});
