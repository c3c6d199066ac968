import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { createRailSim, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { call, impsBody, upiBody } from '../support/api.js';
import { testPool } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { FAST_RAIL, workerConfig } from '../support/stack.js';
import { issueMerchant, memoryLogger, redisContents, tokenFragments, type IssuedMerchant } from './security-support.js';

// Tokens are secrets: they must never be written down anywhere but the merchant's own systems. Not in the
// API's logs or the worker's (captured here with the apps' own redaction settings at the most talkative
// level), not in the jobs Redis carries, and not in the database, which keeps only their SHA-256 digests.

const pool = testPool();
const apiLog = memoryLogger('api');
const workerLog = memoryLogger('worker');
let rail: RailSimServer;
let api: RunningApi;
let worker: RunningWorker;
let acme: IssuedMerchant;
let globex: IssuedMerchant;

// Beneficiaries distinctive enough that finding them anywhere is proof of a leak, not a coincidence.
const ACCOUNT = '918273645501';
const UPI = 'secret.payee@okaxis';

beforeAll(async () => {
  rail = await createRailSim(FAST_RAIL).listen(0);
  api = await startApi(
    loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'trace' }),
    apiLog.logger,
  );
  worker = await startWorker(workerConfig({ RAIL_BASE_URL: rail.url, LOG_LEVEL: 'trace' }), {
    logger: workerLog.logger,
  });
  acme = await issueMerchant(api, 'Acme', '10000.00');
  globex = await issueMerchant(api, 'Globex', '10000.00');
});

afterAll(async () => {
  await worker.close();
  await api.close();
  await rail.close();
  await pool.end();
});

const allTokens = () => [...acme.tokens, ...globex.tokens];
const as = (m: IssuedMerchant, token = m.tokens[0]) => ({ mid: m.mid, token });

async function payoutsOf(mid: string): Promise<{ status: string }[]> {
  const { rows } = await pool.query<{ status: string }>(
    'SELECT p.status::text AS status FROM payouts p JOIN merchants m ON m.id = p.merchant_id WHERE m.mid = $1',
    [mid],
  );
  return rows;
}

/** Every place a fragment of a token shows up in `text`, as "token#n fragment" labels. */
function leaks(text: string, tokens: string[]): string[] {
  return tokens.flatMap((token, i) =>
    tokenFragments(token)
      .filter((fragment) => text.includes(fragment))
      .map((fragment) => `token#${i} (${fragment.slice(0, 6)}…)`),
  );
}

describe('token secrecy', () => {
  it('when payouts are accepted, settled, failed, replayed and refused, then no token appears in the API or worker logs', async () => {
    const imps = impsBody({ Account: ACCOUNT, Amount: '101.00' });
    const answers = [
      await call(api, '/api/impspayout', { merchant: as(acme), body: imps }),
      await call(api, '/api/impspayout', { merchant: as(acme), body: imps }), // a replay
      await call(api, '/api/payout', {
        merchant: as(acme, acme.tokens[1]),
        body: upiBody({ Upi: UPI, Amount: '102.11' }),
      }),
      await call(api, '/api/payout', { merchant: as(acme), body: upiBody({ Upi: UPI, Amount: '103.22' }) }),
      await call(api, '/api/payout', { merchant: as(globex), body: upiBody({ Amount: '20000.00' }) }), // refused: balance
      await call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant: as(acme) }),
      await call(api, `/api/check_payout_status?TransactionID=${imps.TransactionID}`, { merchant: as(acme) }),
      // Refused credentials: another merchant's real token, a token given twice, a malformed body.
      await call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant: as(acme, globex.tokens[0]) }),
      await call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', {
        headers: { MID: acme.mid, Token: `${acme.tokens[0]}, ${acme.tokens[1]}` },
      }),
      await call(api, '/api/impspayout', { merchant: as(acme), body: '{"Amount":' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 400, 200, 200, 401, 401, 400]);
    await eventually(
      () => payoutsOf(acme.mid),
      (rows) => rows.length === 3 && rows.every((r) => r.status !== 'PENDING'),
      {
        what: "Acme's payouts settled by the worker",
      },
    );

    const apiText = apiLog.lines.join('');
    const workerText = workerLog.lines.join('');
    // The capture works: the request lines and the worker's rail calls are there, with the MID.
    expect(apiText).toContain(acme.mid);
    expect(apiText).toContain('payout accepted');
    expect(workerText).toContain('payout settled');
    expect({ api: leaks(apiText, allTokens()), worker: leaks(workerText, allTokens()) }).toEqual({
      api: [],
      worker: [],
    });
    // Beneficiaries are masked too (the same rule protects them).
    expect(apiText + workerText).not.toContain(ACCOUNT);
    expect(apiText + workerText).not.toContain(UPI);
  });

  it('when a client puts its token in the wrong place (the MID header, the query string, the body), then it still never reaches the logs', async () => {
    const [token] = acme.tokens;
    const before = apiLog.lines.length;
    await call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { headers: { MID: token, Token: token } });
    await call(api, `/api/checkMainWallet?PayoutType=Main_Wallet_Balance&Token=${token}`, { merchant: as(acme) });
    await call(api, '/api/payout', { merchant: as(acme), body: upiBody({ Token: token, Amount: '1.00' }) });
    const lines = apiLog.lines.slice(before);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const leaking = lines.filter((line) => leaks(line, [token]).length > 0).map((line) => line.slice(0, 300));
    expect(leaking, 'log lines holding the token').toEqual([]);
  });

  it('when payouts have been queued and run, then every job in Redis carries ids only, and nothing in Redis holds a token or a beneficiary', async () => {
    // A finished job is removed at once (packages/queue/src/job-catalog.ts), so three more payouts are
    // queued while the worker is paused: their jobs are what Redis holds of a payout.
    await worker.worker.pause();
    for (const Amount of ['1.00', '2.00', '3.00']) {
      const body = impsBody({ Account: ACCOUNT, Amount });
      expect((await call(api, '/api/impspayout', { merchant: as(acme), body })).status).toBe(202);
    }
    await eventually(
      () => api.deps.producer.queue.getJobCounts('wait'),
      (counts) => (counts.wait ?? 0) >= 3,
      { what: 'the three execute jobs to be queued' },
    );
    const prefix = `${process.env.QUEUE_PREFIX!}:`;
    const contents = await redisContents(process.env.REDIS_URL!, prefix);
    await worker.worker.resume();
    // Every job of every queue: BullMQ keeps a job as a hash with its name, payload (data) and options.
    const jobs = [...contents].filter(([, text]) => {
      const { type, value } = JSON.parse(text) as { type: string; value: Record<string, unknown> };
      return type === 'hash' && 'data' in value && 'opts' in value;
    });
    // One execute job per payout still waiting.
    expect(jobs.filter(([key]) => /:execute-[0-9]+$/.test(key)).length).toBeGreaterThanOrEqual(3);
    for (const [key, text] of jobs) {
      const { value } = JSON.parse(text) as { value: { data: string } };
      const data = JSON.parse(value.data) as Record<string, unknown>;
      for (const [member, id] of Object.entries(data)) {
        expect(member, `${key}: member ${member}`).toMatch(/(Id|^attempt)$/);
        expect(
          typeof id === 'number' ? Number.isSafeInteger(id) : /^[0-9]+$/.test(String(id)),
          `${key}: ${member}`,
        ).toBe(true);
      }
    }
    const everything = [...contents.values()].join('\n');
    expect(leaks(everything, allTokens())).toEqual([]);
    expect(everything).not.toContain(ACCOUNT);
    expect(everything).not.toContain(UPI);
  });

  it('when tokens are made by the merchant and rotated through its API, then the database holds only their SHA-256 digests and a short display prefix', async () => {
    const { rows } = await pool.query<{ mid: string; token_hash: string; token_prefix: string }>(
      `SELECT m.mid, t.token_hash, t.token_prefix FROM merchant_tokens t JOIN merchants m ON m.id = t.merchant_id
        WHERE m.mid = ANY($1) ORDER BY t.id`,
      [[acme.mid, globex.mid]],
    );
    const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
    expect(rows).toEqual(
      [acme, globex].flatMap((m) =>
        m.tokens.map((token) => ({
          mid: m.mid,
          token_hash: sha256(token),
          token_prefix: expect.any(String) as string,
        })),
      ),
    );
    for (const [i, row] of rows.entries()) {
      const token = allTokens()[i]!;
      // The prefix tells tokens apart for an operator; what stays hidden (32+ base64url characters, 192+
      // bits) is far more than can be guessed.
      expect(token.startsWith(row.token_prefix) && token.length - row.token_prefix.length >= 32).toBe(true);
    }

    // No column of any table holds a token or its secret part, whatever the column is called.
    const { rows: tables } = await pool.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(5);
    const found: string[] = [];
    for (const { name } of tables) {
      for (const fragment of allTokens().flatMap(tokenFragments)) {
        const table = pg.escapeIdentifier(name);
        const { rows: hits } = await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} t WHERE t::text LIKE '%' || $1 || '%'`,
          [fragment],
        );
        if (hits[0]!.n !== '0') found.push(`${name}: ${fragment.slice(0, 6)}…`);
      }
    }
    expect(found).toEqual([]);
  });
});
