import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { bankStatementFor, SETTLEMENT_ACCOUNT } from '@payout/rail-sim';
import { STATEMENT_MEMORY_BUDGET_MB } from '@payout/use-cases';
import { seedSettledPayouts, writeStatement } from '../../bench/statement-stage.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';

// A long statement reconciles in bounded memory (docs/reconciliation.md, "Memory"): rail-sim's MT940 of a day
// of 200,000 payouts, settled in our books, read by `payout-cli recon statement` as its own process (from its
// sources) with the image's heap setting; its peak RSS (process.resourceUsage().maxRSS, written as it exits) stays under the
// stated budget, and every line is matched.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('../../bench/peak-rss.mjs', import.meta.url));
const LINES = 200_000;

const prisma = testPrisma();
let dir: string | undefined;
afterAll(async () => {
  await prisma.$disconnect();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('recon statement over a long statement', () => {
  it(
    'when a day of 200,000 payouts is read, then every line is matched and the process stays within its memory budget',
    async () => {
      const merchant = await makeMerchant(prisma, { balance: '1000.00' });
      // A day no other test settles payouts on, and references of its own.
      const day = '2025-02-17';
      const index = 40 + Math.floor(Math.random() * 60);
      const book = await seedSettledPayouts(prisma, { merchantId: merchant.merchant.id, day, count: LINES, index });
      // Written without their ledger entries: gone again before the books are checked after this file.
      onTestFinished(async () => {
        await prisma.$executeRawUnsafe('DELETE FROM payouts WHERE merchant_id = $1', merchant.merchant.id);
      });
      dir = await mkdtemp(join(tmpdir(), 'statement-memory-'));
      const file = join(dir, `statement-${day}.mt940`);
      await writeStatement(bankStatementFor(book, day), 'mt940', file);

      const rssFile = `${file}.rss`;
      const child = spawn(
        process.execPath,
        [
          '--max-old-space-size=128',
          '--import',
          PEAK_RSS,
          '--conditions=source',
          '--import',
          'tsx',
          'packages/cli/src/main.ts',
          'recon',
          'statement',
          '--file',
          file,
          '--json',
        ],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            STATEMENT_MAX_BYTES: String(1024 * 1024 * 1024),
            STATEMENT_SETTLEMENT_ACCOUNT: SETTLEMENT_ACCOUNT.number,
            PEAK_RSS_FILE: rssFile,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));

      expect(status, Buffer.concat(stderr).toString()).toBe(0);
      const report = JSON.parse(Buffer.concat(stdout).toString()) as {
        counts: Record<string, number>;
        breaks: unknown[];
        statements: { entries: number }[];
      };
      expect(report.counts.matched).toBe(LINES);
      expect(report.breaks).toEqual([]);
      // The day's charge besides our payouts.
      expect(report.statements.map((s) => s.entries)).toEqual([LINES + 1]);
      const peakRssMb = Number(await readFile(rssFile, 'utf8')) / 1024;
      expect(peakRssMb).toBeGreaterThan(0);
      expect(peakRssMb, `peak RSS ${peakRssMb.toFixed(1)} MB`).toBeLessThan(STATEMENT_MEMORY_BUDGET_MB);
    },
    // About 40 s on a quiet machine; more when the machine is shared.
    240_000,
  );
});
