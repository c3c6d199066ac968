import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { call, newTransactionId, useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';

// `pnpm cli payin simulate` as an operator runs it: a separate process that signs a callback and sends it
// to the API it is pointed at, which verifies and records it like any provider's callback.

const SECRET = 'provider-secret-for-the-simulator';
const api = useApi({ PAYIN_CALLBACK_SECRET: SECRET });
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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

function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'packages/cli/src/main.ts', ...argv],
      { cwd: ROOT, env, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function simulate(args: string[], env: Record<string, string> = {}) {
  return runCli(['payin', 'simulate', ...args], {
    ...process.env,
    API_BASE_URL: api.current.url,
    PAYIN_CALLBACK_SECRET: SECRET,
    ...env,
  });
}

/**
 * A workstation's shell pointed at production: the database and the real secret, and no NODE_ENV at all
 * (the test run's own `test` is not passed on).
 */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    API_BASE_URL: api.current.url,
    PAYIN_CALLBACK_SECRET: SECRET,
  };
}

describe('pnpm cli payin simulate', () => {
  it('when run for a merchant, then a signed callback goes through the real endpoint and credits the wallet once', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const TransactionID = newTransactionId();
    const first = await simulate([
      '--mid',
      merchant.mid,
      '--amount',
      '500.00',
      '--TransactionID',
      TransactionID,
      '--json',
    ]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const answer = JSON.parse(first.stdout) as { http: number; answer: Record<string, unknown> };
    expect(answer.http).toBe(200);
    expect(answer.answer).toMatchObject({
      status: 'SUCCESS',
      mode: 'INTENT',
      Amount: '500.00',
      TransactionID,
      outcome: 'created',
      credited: true,
    });

    // The same simulation again is a repeat the API recognises, not a second credit.
    const again = await simulate(['--mid', merchant.mid, '--amount', '500.00', '--TransactionID', TransactionID]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/unchanged/);

    const lookup = await call(api.current, `/api/payin/status?TransactionID=${TransactionID}`, { merchant });
    expect(lookup.json).toMatchObject({ status: 'SUCCESS', Amount: '500.00', Bankriff: `SIM${TransactionID}` });
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.available).toBe(51000n);
  });

  it('when the simulator holds the wrong secret, then the API refuses it, it exits 1, and nothing is stored', async () => {
    const merchant = await makeMerchant(db);
    const before = await merchantBooks(pool, merchant.merchant.id);
    const result = await simulate(['--mid', merchant.mid, '--amount', '500.00', '--mode', 'QR'], {
      PAYIN_CALLBACK_SECRET: 'not-the-provider-secret-at-all',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/401/);
    expect(await pool.query('SELECT 1 FROM collections WHERE merchant_id = $1', [merchant.merchant.id])).toMatchObject({
      rowCount: 0,
    });
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when NODE_ENV is unset (production), then it is refused with the reason, exits non-zero and credits nothing', async () => {
    const merchant = await makeMerchant(db);
    const before = await merchantBooks(pool, merchant.merchant.id);

    const result = await runCli(
      ['payin', 'simulate', '--mid', merchant.mid, '--amount', '5000.00', '--TransactionID', newTransactionId()],
      cleanEnvironment(),
    );

    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/payin simulate is for development and tests only/);
    expect(result.stderr).toMatch(/NODE_ENV is production/);
    expect(await pool.query('SELECT 1 FROM collections WHERE merchant_id = $1', [merchant.merchant.id])).toMatchObject({
      rowCount: 0,
    });
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    const production = await runCli(['payin', 'simulate', '--mid', merchant.mid, '--amount', '1.00'], {
      ...cleanEnvironment(),
      NODE_ENV: 'production',
    });
    expect(production.status).toBe(1);
  });

  it('when the commands are listed without NODE_ENV, then payin is not among them; in development it is', async () => {
    const listed = await runCli(['--help'], cleanEnvironment());
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/reconcile/);
    expect(listed.stdout).not.toMatch(/payin/);
    const development = await runCli(['--help'], { ...cleanEnvironment(), NODE_ENV: 'development' });
    expect(development.stdout).toMatch(/payin/);
  });

  it('when NODE_ENV is unset and self-approval is asked for, then the CLI refuses to start, naming the setting', async () => {
    const refused = await runCli(['reconcile'], { ...cleanEnvironment(), APPROVALS_ALLOW_SELF_APPROVAL: 'true' });
    expect(refused.status).toBe(78);
    expect(refused.stderr).toMatch(/APPROVALS_ALLOW_SELF_APPROVAL/);
  });

  it('when `pnpm cli` is run, then its script leaves NODE_ENV as the shell has it (unset is production)', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.cli).not.toMatch(/NODE_ENV/);
  });

  it('when an argument is bad, then it exits 2 and says which', async () => {
    const result = await simulate(['--mid', 'ACME', '--amount', '500.00', '--mode', 'CARD']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--mode must be one of INTENT, COLLECT, QR/);
  });
});
