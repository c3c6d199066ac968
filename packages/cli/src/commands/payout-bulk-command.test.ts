import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, creditWallet, findWallet, type PrismaClient } from '@payout/db';
import { parseJson } from '@payout/domain';
import { createProducerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { EXIT_FAILED, EXIT_OK } from '../program.js';
import { runCliCapturing, type CliRun } from '../test-cli-run.js';

// `pnpm cli payout bulk --mid M --file payouts.csv [--json]` against this run's PostgreSQL and Redis.

let prisma: PrismaClient;
let dir: string;
const connection = createProducerConnection(process.env.REDIS_URL!);
const queue = new Queue(PAYOUT_QUEUE, { connection, prefix: process.env.QUEUE_PREFIX! });
beforeAll(async () => {
  prisma = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 });
  dir = await mkdtemp(join(tmpdir(), 'payout-bulk-'));
});
afterAll(async () => {
  await prisma.$disconnect();
  await queue.close();
  connection.disconnect();
});

function cli(...argv: string[]): Promise<CliRun> {
  return runCliCapturing(argv, () => {
    const own = createProducerConnection(process.env.REDIS_URL!);
    const q = new Queue(PAYOUT_QUEUE, { connection: own, prefix: process.env.QUEUE_PREFIX! });
    return {
      queue: q,
      close: async () => {
        await q.close();
        own.disconnect();
      },
    };
  });
}

let sequence = 0;
async function fundedMerchant(rupees: bigint): Promise<{ id: number; mid: string }> {
  const merchant = await prisma.merchant.create({
    data: { mid: `BULK${Date.now()}${++sequence}`, name: 'Bulk file test' },
  });
  await creditWallet(prisma, merchant.id, rupees * 100n, `fund-${merchant.id}`);
  return merchant;
}

async function csvFile(lines: string[]): Promise<string> {
  const path = join(dir, `payouts-${++sequence}.csv`);
  await writeFile(path, lines.join('\n') + '\n');
  return path;
}

const HEADER = 'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name,BankName,Mobile,Email,Description';
const id = () => `${Date.now()}${++sequence}`;

describe('pnpm cli payout bulk', () => {
  it('when the file is well formed, then every row becomes a payout, its job is queued, and the same file again pays nothing twice', async () => {
    const merchant = await fundedMerchant(1_000n);
    const [a, b, c] = [id(), id(), id()];
    const file = await csvFile([
      HEADER,
      `IMPS,${a},101.00,123456789012,hdfc0001234,,Asha Kumar,HDFC Bank,9876543210,asha@example.com,"Salary, June"`,
      `UPI,${b},99.50,,,asha.kumar@okhdfc,Asha Kumar,,,,`,
      `UPI,${c},5000.00,,,asha.kumar@okhdfc,Asha Kumar,,,,too much`,
    ]);

    const first = await cli('payout', 'bulk', '--mid', merchant.mid, '--file', file, '--json');

    expect(first.status, first.stderr).toBe(EXIT_OK);
    const body = parseJson(first.stdout) as Record<string, unknown>;
    expect(JSON.parse(first.stdout)).toMatchObject({
      status: 'ACCEPTED',
      total: 3,
      accepted: 2,
      failed: 1,
      rejected: 0,
      jobsQueued: true,
    });
    const results = JSON.parse(first.stdout).results as { Ack_no: string; status: string }[];
    expect(results.map((r) => r.status)).toEqual(['PENDING', 'PENDING', 'FAILED']);
    expect(String(body.BatchID)).toMatch(/^[0-9]{1,30}$/);
    expect(await findWallet(prisma, merchant.id)).toMatchObject({
      availablePaise: 100_000n - 20_050n,
      reservedPaise: 20_050n,
    });
    const payouts = await prisma.payout.findMany({ where: { merchantId: merchant.id }, orderBy: { id: 'asc' } });
    expect(payouts.map((p) => [p.transactionId, p.beneficiaryIfsc, p.description])).toEqual([
      [a, 'HDFC0001234', 'Salary, June'],
      [b, null, null],
      [c, null, 'too much'],
    ]);
    for (const p of payouts.slice(0, 2))
      expect(await queue.getJob(`execute-${p.id}`), `job of ${p.transactionId}`).toBeDefined();

    const again = await cli('payout', 'bulk', '--mid', merchant.mid, '--file', file, '--json');
    expect(again.status, again.stderr).toBe(EXIT_OK);
    expect((JSON.parse(again.stdout).results as { Ack_no: string }[]).map((r) => r.Ack_no)).toEqual(
      results.map((r) => r.Ack_no),
    );
    expect(await prisma.payout.count({ where: { merchantId: merchant.id } })).toBe(3);

    const table = await cli('payout', 'bulk', '--mid', merchant.mid, '--file', file);
    expect(table.status, table.stderr).toBe(EXIT_OK);
    expect(table.stdout).toContain('2 accepted, 1 failed, 0 rejected');
    expect(table.stdout).toMatch(new RegExp(`^2 +${a} +PENDING +101\\.00 `, 'm'));
    expect(table.stdout).toMatch(new RegExp(`^4 +${c} +FAILED +5000\\.00 .*MP007`, 'm'));
  });

  it('when a row is malformed, then the whole file is refused with its line numbers and nothing is reserved', async () => {
    const merchant = await fundedMerchant(1_000n);
    const file = await csvFile([
      HEADER,
      `IMPS,${id()},101.00,123456789012,HDFC0001234,,Asha Kumar,,,,`,
      `IMPS,${id()},101.00,123456789012,HDFC1234,,Asha Kumar,,,,`,
      `UPI,${id()},1.005,,,asha@okhdfc,Asha Kumar,,,,`,
      `NEFT,${id()},1.00,,,asha@okhdfc,Asha Kumar,,,,`,
    ]);

    const result = await cli('payout', 'bulk', '--mid', merchant.mid, '--file', file);

    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/nothing was reserved/);
    expect(result.stderr).toMatch(/line 3: Ifsc/);
    expect(result.stderr).toMatch(/line 4: Amount/);
    expect(result.stderr).toMatch(/line 5: Mode/);
    expect(result.stderr).not.toMatch(/line 2/);
    expect(await prisma.payout.count({ where: { merchantId: merchant.id } })).toBe(0);
    expect(await findWallet(prisma, merchant.id)).toMatchObject({ availablePaise: 100_000n, reservedPaise: 0n });
  });

  it.each([
    ['an unclosed quote', [HEADER, `UPI,1,1.00,,,a@okhdfc,"Asha,,,,`], /file refused.*line/i],
    [
      'an unknown column',
      ['Mode,TransactionID,Amount,Name,Colour', 'UPI,1,1.00,Asha,red'],
      /line 1: unknown column Colour/,
    ],
    ['a missing column', ['Mode,TransactionID,Name', 'UPI,1,Asha'], /line 1: missing column Amount/],
    ['a row with too many cells', [HEADER, `UPI,1,1.00,,,a@okhdfc,Asha,,,,,extra`], /file refused.*line 2/i],
    ['no rows', [HEADER], /no payouts/],
  ])('when the file has %s, then it is refused whole and nothing is recorded', async (_name, lines, message) => {
    const merchant = await fundedMerchant(10n);
    const result = await cli('payout', 'bulk', '--mid', merchant.mid, '--file', await csvFile(lines));
    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(message);
    expect(await prisma.payout.count({ where: { merchantId: merchant.id } })).toBe(0);
  });
});
