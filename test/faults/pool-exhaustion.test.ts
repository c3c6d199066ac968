import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { RunningApi } from '@payout/api';
import { call, impsBody, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { merchantBooks } from '../support/ledger-checks.js';
import { expectAllClear, PATIENT_STATEMENTS, useFaultStack, type FaultStack } from './fault-stack.js';

// The database is reachable but has no connection to give: the API's statements are stuck behind a lock
// (a long migration, say) and hold every connection, or the server is out of connection slots. Requests
// must fail fast with the contract's 503, and a refused payout must leave nothing behind.
const MAX_CONNECTIONS = 20;
const stack = useFaultStack({ postgres: { maxConnections: MAX_CONNECTIONS } });

interface Answered extends ApiResponse {
  ms: number;
}
type PayoutBody = ReturnType<typeof impsBody>;

async function timed(request: Promise<ApiResponse>): Promise<Answered> {
  const started = performance.now();
  const answer = await request;
  return { ...answer, ms: performance.now() - started };
}

// Statements here must stay stuck for as long as the test holds the lock, however slow the machine, so
// what is shown is the pool running dry, not the API's own lock time-out (fault-stack.ts).

const contract = (a: ApiResponse) => ({
  status: a.status,
  body: { error: a.json.error, status_code: a.json.status_code, status: a.json.status },
});
const CONTRACT_503 = { status: 503, body: { error: true, status_code: 503, status: 'SERVICE UNAVAILABLE' } };

/** A long maintenance transaction holding the payouts table: whatever touches it waits, holding its connection. */
async function lockPayouts(s: FaultStack): Promise<pg.Client> {
  const maintenance = new pg.Client({ connectionString: s.postgres.databaseUrl });
  await maintenance.connect();
  await maintenance.query('BEGIN');
  await maintenance.query('LOCK TABLE payouts IN ACCESS EXCLUSIVE MODE');
  return maintenance;
}

async function lockWaiters(s: FaultStack): Promise<number> {
  const { rows } = await s.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE application_name = 'payout-gateway-api' AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

interface Sent<T> {
  meta: T;
  answer: Promise<Answered>;
}

/**
 * Sends requests one at a time until `n` of them wait for the lock, each holding one of the API's
 * connections. On a loaded machine, opening a fresh connection can outlast the API's short connect
 * time-out; such a request is answered 503 having held nothing, so it is kept aside (`early`, for the
 * books check) and the next one is sent in its place. `send(slot)` gets the index of the place to fill.
 */
async function sendUntilStuck<T>(
  s: FaultStack,
  n: number,
  send: (slot: number) => Sent<T>,
): Promise<{ stuck: Sent<T>[]; early: (Sent<T> & { answered: Answered })[] }> {
  const stuck: Sent<T>[] = [];
  const early: (Sent<T> & { answered: Answered })[] = [];
  while (stuck.length < n) {
    expect(early.length, 'requests answered before they reached the lock').toBeLessThan(10);
    const sent = send(stuck.length);
    let answered: Answered | undefined;
    void sent.answer.then((a) => (answered = a));
    const waiting = stuck.length + 1;
    await eventually(async () => answered !== undefined || (await lockWaiters(s)) === waiting, Boolean, {
      what: `request ${waiting} to wait for the lock or be answered`,
    });
    if ((await lockWaiters(s)) === waiting) stuck.push(sent);
    else early.push({ ...sent, answered: await sent.answer });
  }
  return { stuck, early };
}

/** Resolves to the answer, or to "still waiting" if none came within `ms`. */
async function within(ms: number, answer: Promise<Answered>): Promise<Answered | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The payouts the merchant was told were refused must not exist; those accepted must, with their reservation. */
async function expectNothingHalfWritten(
  s: FaultStack,
  merchant: TestMerchant,
  payouts: { body: PayoutBody; answer: ApiResponse }[],
): Promise<void> {
  const { rows } = await s.pool.query<{ transaction_id: string; amount_paise: string }>(
    'SELECT transaction_id, amount_paise::text FROM payouts WHERE merchant_id = $1',
    [merchant.merchant.id],
  );
  const recorded = new Set(rows.map((r) => r.transaction_id));
  expect(payouts.map(({ body }) => ({ id: body.TransactionID, recorded: recorded.has(body.TransactionID) }))).toEqual(
    payouts.map(({ body, answer }) => ({ id: body.TransactionID, recorded: answer.status === 202 })),
  );
  const reserved = rows.reduce((sum, r) => sum + BigInt(r.amount_paise), 0n);
  expect(await merchantBooks(s.pool, merchant.merchant.id)).toMatchObject({ reserved, available: 10_000n - reserved });
}

/** The merchant sends the refused payouts again; a worker pays everything; the audit is clean. */
async function retryAndDrain(
  s: FaultStack,
  api: RunningApi,
  merchant: TestMerchant,
  bodies: PayoutBody[],
): Promise<void> {
  for (const body of bodies) expect((await call(api, '/api/impspayout', { merchant, body })).status).toBe(202);
  const worker = await s.startWorker();
  try {
    await expectAllClear(s);
  } finally {
    await worker.close();
  }
}

async function cachedMerchant(s: FaultStack, api: RunningApi): Promise<TestMerchant> {
  const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
  // Credentials cached, so what waits for the database is the requests' own statements.
  expect((await call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant })).status).toBe(200);
  return merchant;
}

describe('connection pool exhausted', () => {
  it('when every connection of the API pool is stuck behind a lock, then further lookups and payouts answer 503 within the connect time-out and a refused payout leaves nothing behind', async () => {
    const s = stack.current;
    const api = await s.startApi({
      ...PATIENT_STATEMENTS,
      DATABASE_POOL_SIZE: '3',
      DATABASE_CONNECT_TIMEOUT_MS: '300',
    });
    const merchant = await cachedMerchant(s, api);
    const maintenance = await lockPayouts(s);
    let stuck: Promise<Answered>[];
    let refused: { body: PayoutBody; answer: Answered }[];
    let lookups: Answered[];
    try {
      // Three lookups take the pool's three connections and wait for the lock.
      let sent = 0;
      const lookup = () => ({
        meta: undefined,
        answer: timed(call(api, `/api/check_payout_status?TransactionID=${900 + ++sent}`, { merchant })),
      });
      stuck = (await sendUntilStuck(s, 3, lookup)).stuck.map((l) => l.answer);
      // Nothing is left for anyone else.
      const bodies = [1, 2, 3, 4].map((i) => impsBody({ Amount: `${i}.00` }));
      [refused, lookups] = await Promise.all([
        Promise.all(
          bodies.map(async (body) => ({ body, answer: await timed(call(api, '/api/impspayout', { merchant, body })) })),
        ),
        Promise.all(
          [1, 2].map((i) => timed(call(api, `/api/check_payout_status?TransactionID=${950 + i}`, { merchant }))),
        ),
      ]);
    } finally {
      await maintenance.query('ROLLBACK');
      await maintenance.end();
    }
    // Released, the stuck lookups finish normally (nothing by those ids).
    expect((await Promise.all(stuck)).map((a) => a.status)).toEqual([404, 404, 404]);

    const answers = [...refused.map((r) => r.answer), ...lookups];
    expect(answers.map(contract)).toEqual(answers.map(() => CONTRACT_503));
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(3_000);
    await expectNothingHalfWritten(s, merchant, refused);
    await retryAndDrain(
      s,
      api,
      merchant,
      refused.map((r) => r.body),
    );
  });

  it('when the accept statements in flight are stuck behind a lock, then a further payout answers 503 within the connect time-out instead of queuing behind them', async () => {
    const s = stack.current;
    // Connections to spare: what runs out is the accepter's own allowance of statements in flight. The
    // accepter never puts one merchant in two statements, so the two stuck statements are two merchants'.
    const api = await s.startApi({
      ...PATIENT_STATEMENTS,
      DATABASE_POOL_SIZE: '10',
      ACCEPT_MAX_IN_FLIGHT: '2',
      DATABASE_CONNECT_TIMEOUT_MS: '300',
    });
    const stuckMerchants = [await cachedMerchant(s, api), await cachedMerchant(s, api)];
    const merchant = await cachedMerchant(s, api);
    const maintenance = await lockPayouts(s);
    const body = impsBody({ Amount: '3.00' });
    let stuck: Sent<{ merchant: TestMerchant; body: PayoutBody }>[];
    let early: (Sent<{ merchant: TestMerchant; body: PayoutBody }> & { answered: Answered })[];
    let waited: Answered | 'still waiting';
    let later: Promise<Answered>;
    try {
      ({ stuck, early } = await sendUntilStuck(s, 2, (slot) => {
        const meta = { merchant: stuckMerchants[slot]!, body: impsBody({ Amount: `${slot + 1}.00` }) };
        return { meta, answer: timed(call(api, '/api/impspayout', meta)) };
      }));
      later = timed(call(api, '/api/impspayout', { merchant, body }));
      waited = await within(3_000, later);
    } finally {
      await maintenance.query('ROLLBACK');
      await maintenance.end();
    }
    // Released, the stuck payouts are accepted.
    expect((await Promise.all(stuck.map((p) => p.answer))).map((a) => a.status)).toEqual([202, 202]);
    const answer = await later;
    for (const stuckMerchant of stuckMerchants) {
      const sentFor = [...stuck, ...early].filter((p) => p.meta.merchant === stuckMerchant);
      await expectNothingHalfWritten(
        s,
        stuckMerchant,
        await Promise.all(sentFor.map(async (p) => ({ body: p.meta.body, answer: await p.answer }))),
      );
    }
    await expectNothingHalfWritten(s, merchant, [{ body, answer }]);
    await retryAndDrain(s, api, merchant, answer.status === 202 ? [] : [body]);
    expect(waited === 'still waiting' ? 'still waiting after 3 s' : contract(waited)).toEqual(CONTRACT_503);
  });

  it('when PostgreSQL is out of connection slots, then requests answer the contract 503 at once and a refused payout leaves nothing behind', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
    const api = await s.startApi({ DATABASE_CONNECT_TIMEOUT_MS: '1000' });

    // Someone else takes every slot the server has.
    const hogs: pg.Client[] = [];
    for (;;) {
      const hog = new pg.Client({ connectionString: s.postgres.databaseUrl });
      hog.on('error', () => undefined);
      try {
        await hog.connect();
        hogs.push(hog);
      } catch (error) {
        expect((error as { code?: string }).code).toBe('53300'); // too many connections
        break;
      }
    }
    let answers: { body: PayoutBody; answer: Answered }[];
    let lookup: Answered;
    try {
      answers = await Promise.all(
        [1, 2, 3].map(async (i) => {
          const body = impsBody({ Amount: `${i}.00` });
          return { body, answer: await timed(call(api, '/api/impspayout', { merchant, body })) };
        }),
      );
      lookup = await timed(call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant }));
    } finally {
      await Promise.all(hogs.map((hog) => hog.end()));
    }

    await expectNothingHalfWritten(s, merchant, answers);
    await retryAndDrain(
      s,
      api,
      merchant,
      answers.map((a) => a.body),
    );
    const all = [...answers.map((a) => a.answer), lookup];
    expect(all.map(contract)).toEqual(all.map(() => CONTRACT_503));
    expect(Math.max(...all.map((a) => a.ms))).toBeLessThan(3_000);
  });
});
