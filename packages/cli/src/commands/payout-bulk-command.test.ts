import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { EXIT_FAILED, EXIT_USAGE } from '../program.js';
import { runCliCapturing, type CliRun } from '../test-cli-run.js';

// `pnpm cli payout bulk` is a person asking for a batch: it sends the file to the admin listener with the
// person's own credential, and never touches the database or the queue itself (docs/operations.md, "Bulk
// payouts from a file"). Here, what it refuses before anything is sent; the whole path through the admin
// listener and a second person's approval is test/operations/operator-bulk-cli.test.ts.

let prisma: PrismaClient;
let dir: string;
beforeAll(async () => {
  prisma = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
  dir = await mkdtemp(join(tmpdir(), 'payout-bulk-'));
});
afterAll(() => prisma.$disconnect());

/** The CLI with an admin listener nobody answers on: a command that sends nothing never notices. */
function cli(argv: string[], credential?: string): Promise<CliRun> {
  return runCliCapturing(
    argv,
    () => {
      throw new Error('payout bulk must not open the queue');
    },
    { url: 'http://127.0.0.1:9', ...(credential && { credential }) },
  );
}

async function csvFile(): Promise<string> {
  const path = join(dir, `payouts-${Date.now()}.csv`);
  await writeFile(path, 'Mode,TransactionID,Amount,Upi,Name\nUPI,1,1.00,asha@okhdfc,Asha\n');
  return path;
}

describe('pnpm cli payout bulk', () => {
  it('when no credential is held, then it says how to sign in, and nothing is asked for', async () => {
    const requests = await prisma.approvalRequest.count();
    const result = await cli(['payout', 'bulk', '--mid', 'ACME01', '--file', await csvFile(), '--why', 'salaries']);
    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/sign in first/);
    expect(await prisma.approvalRequest.count()).toBe(requests);
  });

  it.each([
    ['without --why', ['--mid', 'ACME01'], /--why/],
    ['with a BatchID that is not digits', ['--mid', 'ACME01', '--why', 'x', '--batch-id', '12a'], /--batch-id/],
  ])('when it is run %s, then it is a usage error', async (_name, args, message) => {
    const result = await cli(['payout', 'bulk', '--file', await csvFile(), ...args], 'any-key');
    expect(result.status).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(message);
  });

  it('when the file cannot be read, then it says so and sends nothing', async () => {
    const result = await cli(
      ['payout', 'bulk', '--mid', 'ACME01', '--file', join(dir, 'missing.csv'), '--why', 'x'],
      'any-key',
    );
    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/cannot read .*missing\.csv/);
  });
});
