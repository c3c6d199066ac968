import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@payout/cli';
import { createPrismaClient, settleSuccess } from '@payout/db';
import { createRailSim, type RailSim, type RailSimServer } from '@payout/rail-sim';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { useApi } from '../support/api.js';
import { cliAs, statementApplied, statementPeople } from '../support/approvals.js';
import { cli, payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday, sendToBank, statementFile } from './statement-support.js';

// Every layout a bank sends (docs/reconciliation-formats.md) through `pnpm cli recon statement`: rail-sim's
// own export of the day in each layout is reconciled with nothing left over and its return applied once;
// a file whose balances do not add up is refused whole; a bank's CSV export is read with its profile.

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
let sim: RailSim;
let bank: RailSimServer;
beforeAll(async () => {
  sim = createRailSim({ reverseAfterMs: 1 });
  bank = await sim.listen(0);
});
afterAll(async () => {
  await bank.close();
  await prisma.$disconnect();
  await pool.end();
});

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const statementRuns = async () =>
  (await pool.query('SELECT count(*)::int AS n FROM statement_runs')).rows[0].n as number;

/** The bank's statement of today (IST) in one layout, as GET /v1/statement exports it. */
async function exported(format: string): Promise<string> {
  const response = await fetch(`${bank.url}/v1/statement?date=${istToday()}&format=${format}`);
  if (response.status !== 200) throw new Error(`statement: ${response.status} ${await response.text()}`);
  return response.text();
}

/** Two payouts paid at the bank and settled here, the `.99` one then returned by the bank. */
async function paidAndOneReturned() {
  const merchant = await makeMerchant(prisma, { balance: '1000.00' });
  const paid = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
  const bounced = await payoutAtTheRail(prisma, merchant, { amountPaise: 10199n });
  for (const payout of [paid, bounced]) {
    const answer = await sendToBank(bank, payout);
    expect(answer.status).toBe('SUCCESS');
    await settleSuccess(prisma, payout.id, answer.utr!, { reason: 'test: rail said SUCCESS', actor: 'test' });
  }
  await eventually(
    () => Promise.resolve(sim.payout(bounced.ackNo)?.status),
    (status) => status === 'REVERSED',
    { what: 'the bank to reverse the .99 payout' },
  );
  return { merchant, bounced };
}

describe.each([
  { format: 'csv', file: 'statement.csv', read: 'canonical-csv', charges: 0 },
  { format: 'mt940', file: 'statement.mt940', read: 'mt940', charges: 1 },
  { format: 'camt053', file: 'statement.xml', read: 'camt.053.001.08', charges: 1 },
])('rail-sim’s statement as $format', ({ format, file, read, charges }) => {
  it('when it is applied twice after a payout came back, then nothing is left over and the payout is reversed once', async () => {
    const { merchant, bounced } = await paidAndOneReturned();
    const path = await statementFile(await exported(format), file);
    const before = (await merchantBooks(pool, merchant.merchant.id)).available;

    const first = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);
    const second = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);

    expect(first.status).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, unknown> & { setAside: { class: string }[] };
    expect(report).toMatchObject({
      counts: { applied: 1 },
      breaks: [],
      statements: [{ format: read }],
    });
    expect(report.setAside.filter((entry) => entry.class === 'bank_charge')).toHaveLength(charges);
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ counts: { applied: 0 }, breaks: [] });
    expect((await merchantBooks(pool, merchant.merchant.id)).available).toBe(before + 10199n);
    const { rows } = await pool.query('SELECT state::text FROM payouts WHERE id = $1', [bounced.id]);
    expect(rows).toEqual([{ state: 'REVERSED' }]);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });
});

describe('`pnpm rail-sim:statement --format`', () => {
  it('when it writes the day as camt053, then the file is the statement the route exports in that format', async () => {
    const out = join(dirname(await statementFile('')), 'written.xml');

    await promisify(execFile)(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        'apps/rail-sim/src/write-statement.ts',
        '--url',
        bank.url,
        '--date',
        istToday(),
        '--format',
        'camt053',
        '--out',
        out,
      ],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
    );

    expect(await readFile(out, 'utf8')).toBe(await exported('camt053'));
  });
});

describe('a statement file refused whole', () => {
  it.each([
    'statement-balance-error.mt940',
    'statement-balance-error.camt053.001.02.xml',
    'statement-balance-error.camt053.001.08.xml',
  ])(
    'when %s does not add up to its closing balance, then exit 2 with the amounts and nothing stored',
    async (name) => {
      const runsBefore = await statementRuns();

      const { maker } = await statementPeople();
      const result = await cliAs(api.current.adminUrl, maker, 'recon', 'statement', '--file', fixture(name), '--apply');

      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(
        /opening balance [0-9.]+ \+ entries [0-9.-]+ = [0-9.-]+, but the closing balance is [0-9.-]+/,
      );
      expect(result.stderr).toMatch(/nothing applied/);
      expect(await statementRuns()).toBe(runsBefore);
    },
  );

  it('when --format names another layout than the file has, then exit 2 and nothing stored', async () => {
    const runsBefore = await statementRuns();

    const result = await cli('recon', 'statement', '--file', fixture('statement.mt940'), '--format', 'camt053');

    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/reads as mt940, not camt053/);
    expect(await statementRuns()).toBe(runsBefore);
  });

  it('when the statement is for another account than STATEMENT_SETTLEMENT_ACCOUNT, then exit 2 and nothing stored', async () => {
    const path = await statementFile(await exported('mt940'), 'statement.mt940');
    const runsBefore = await statementRuns();
    const err: string[] = [];

    const status = await runCli(['recon', 'statement', '--file', path], {
      settlementAccount: '99999999999999',
      openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
      openQueue: () => {
        throw new Error('recon statement needs no queue');
      },
      stdout: () => undefined,
      stderr: (line) => err.push(line),
    });

    expect(status).toBe(2);
    expect(err.join('\n')).toMatch(
      /is for account SIMB0000001\/50200012345678, not the settlement account 99999999999999/,
    );
    expect(await statementRuns()).toBe(runsBefore);
  });
});

describe('a bank’s CSV export', () => {
  it('when it is read with a shipped --profile, then its movements are matched and its charges set aside', async () => {
    const result = await cli(
      'recon',
      'statement',
      '--file',
      fixture('hdfc-style.csv'),
      '--profile',
      'hdfc-style',
      '--json',
    );

    // The fixture's references are no payouts of this database: each movement of ours is a break. The export
    // has no transaction code column, so its narrated return is for a person, whatever it names.
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as Record<string, unknown> & { setAside: { class: string }[] };
    expect(report).toMatchObject({
      valueDates: ['2026-11-24'],
      counts: { unknown_reference: 2, return_without_bank_code: 1 },
      statements: [{ format: 'bank-csv', account: '50200012345678' }],
    });
    expect(report.setAside.filter((entry) => entry.class === 'bank_charge')).toHaveLength(2);
  });

  it('when it is read with a profile file, then it is read the same way', async () => {
    const profile = fileURLToPath(new URL('../../packages/recon/profiles/icici-style.json', import.meta.url));

    const result = await cli(
      'recon',
      'statement',
      '--file',
      fixture('icici-style.csv'),
      '--profile',
      profile,
      '--json',
    );

    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      statements: [{ format: 'bank-csv' }],
      counts: { unknown_reference: 2, return_without_bank_code: 1 },
    });
  });

  it('when it is read for a person (no --json), then the table shows the file, what was set aside and why', async () => {
    const result = await cli('recon', 'statement', '--file', fixture('hdfc-style.csv'), '--profile', 'hdfc-style');

    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/The file\n.*format.*\n.*\n.*bank-csv .*50200012345678/);
    expect(result.stdout).toMatch(/Set aside, not payouts of ours: [0-9]+\n/);
    expect(result.stdout).toMatch(/bank_charge .* a bank charge/);
  });

  it('when it is read without a profile, then exit 2 asking for one', async () => {
    const result = await cli('recon', 'statement', '--file', fixture('hdfc-style.csv'));

    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--profile/);
  });
});
