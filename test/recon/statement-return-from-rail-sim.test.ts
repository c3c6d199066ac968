import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleSuccess } from '@payout/db';
import { createRailSim, type RailSim, type RailSimServer } from '@payout/rail-sim';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { useApi } from '../support/api.js';
import { statementApplied } from '../support/approvals.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { bankStatement, istToday, sendToBank, statementFile } from './statement-support.js';

// A statement on which the bank and our books agree but for money that came back: rail-sim's own `.99`
// payout (paid, then reversed) exports a DEBIT and a RETURN line; --apply reverses the payout once and
// leaves nothing unresolved (exit 0), and the same file again applies nothing.

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

describe('a statement with a return exported by rail-sim', () => {
  it('when it is applied twice, then the payout is reversed once, the first run exits 0 and the second applies nothing', async () => {
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
    const exported = await bankStatement(bank);
    expect(exported.split('\n').filter((row) => row.startsWith(bounced.ackNo))).toEqual([
      expect.stringMatching(new RegExp(`^${bounced.ackNo},[0-9]{12},101\\.99,DEBIT,`)),
      expect.stringMatching(new RegExp(`^${bounced.ackNo},[0-9A-Za-z]+,101\\.99,RETURN,`)),
    ]);
    const path = await statementFile(exported);
    const before = (await merchantBooks(pool, merchant.merchant.id)).available;

    const first = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);
    const second = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);

    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      counts: { matched: 2, return: 1, applied: 1 },
      breaks: [],
    });
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ counts: { matched: 2, return: 1, applied: 0 }, breaks: [] });
    expect((await merchantBooks(pool, merchant.merchant.id)).available).toBe(before + 10199n);
    const { rows } = await pool.query('SELECT state::text FROM payouts WHERE id = $1', [bounced.id]);
    expect(rows).toEqual([{ state: 'REVERSED' }]);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when `pnpm rail-sim:statement` writes the day to a file, then the file is the statement the route exports', async () => {
    const out = join(dirname(await statementFile('')), 'written.csv');
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
        '--out',
        out,
      ],
      { cwd: new URL('../..', import.meta.url).pathname },
    );
    expect(await readFile(out, 'utf8')).toBe(await bankStatement(bank, istToday()));
  });
});
