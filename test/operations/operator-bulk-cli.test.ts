import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_FAILED, EXIT_OK, createAdminClient, runCli } from '@payout/cli';
import { createPrismaClient, findWallet, listOperatorActions, type PrismaClient } from '@payout/db';
import { createProducerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { freshSecondFactorCode, personWithKey } from '../support/people.js';

// `pnpm cli payout bulk` through the real door (docs/operations.md, "Bulk payouts from a file"): the CLI
// sends the file to the admin listener with the person's own API key; the batch is a request that queues
// nothing until another approver, with their own key, approves it, and then exactly its lines are accepted
// and their jobs queued. No worker runs here, so the jobs stay in the queue to be counted.

const api = useApi();
let db: PrismaClient;
let dir: string;
let operator: { username: string; key: string };
let approver: { username: string; key: string };
let support: { username: string; key: string };
const connection = createProducerConnection(process.env.REDIS_URL!);
const queue = new Queue(PAYOUT_QUEUE, { connection, prefix: process.env.QUEUE_PREFIX! });

beforeAll(async () => {
  db = testPrisma();
  dir = await mkdtemp(join(tmpdir(), 'operator-bulk-'));
  operator = await personWithKey('operator');
  approver = await personWithKey('approver');
  support = await personWithKey('support');
});
afterAll(async () => {
  await queue.close();
  connection.disconnect();
  await db.$disconnect();
});

/** `pnpm cli …` in-process, holding `key` (as PAYOUT_ADMIN_KEY would give it), against this file's admin listener. */
async function cli(key: string | undefined, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('payout bulk must not open the queue itself');
    },
    openAdmin: () => createAdminClient({ url: api.current.adminUrl, ...(key && { credential: key }) }),
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/**
 * An approval through the admin listener with a person's own key and a fresh code of theirs, as `pnpm cli
 * approval approve` sends it.
 */
async function approve(person: { username: string; key: string }, id: string) {
  const res = await fetch(`${api.current.adminUrl}/admin/approvals/${id}/approve`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${person.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      note: 'checked against the merchant’s mail',
      code: await freshSecondFactorCode(person.username),
    }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

let sequence = 0;
const uniqueId = () => `${Date.now()}${process.pid % 1000}${++sequence}`.slice(0, 30);
async function csvFile(lines: string[]): Promise<string> {
  const path = join(dir, `payouts-${++sequence}.csv`);
  await writeFile(path, lines.join('\n') + '\n');
  return path;
}
const HEADER = 'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name,BankName,Mobile,Email,Description';

async function worldOf(merchant: TestMerchant) {
  return {
    payouts: await db.payout.count({ where: { merchantId: merchant.merchant.id } }),
    batches: await db.bulkBatch.count({ where: { merchantId: merchant.merchant.id } }),
    available: (await findWallet(db, merchant.merchant.id))?.availablePaise,
    requests: await db.approvalRequest.count({ where: { merchantId: merchant.merchant.id } }),
  };
}

describe('pnpm cli payout bulk', () => {
  it('when an operator asks for a file with their key, then nothing is queued until another approver approves it with theirs, and then exactly its lines are', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const [a, b] = [uniqueId(), uniqueId()];
    const file = await csvFile([
      HEADER,
      `IMPS,${a},101.00,123456789012,hdfc0001234,,Asha Kumar,HDFC Bank,9876543210,asha@example.com,"Salary, June"`,
      `UPI,${b},99.50,,,asha.kumar@okhdfc,Asha Kumar,,,,`,
    ]);
    const jobsBefore = await queue.getJobCounts();

    const asked = await cli(
      operator.key,
      'payout',
      'bulk',
      '--mid',
      merchant.mid,
      '--file',
      file,
      '--why',
      'June salaries',
      '--json',
    );

    expect(asked.status, asked.stderr).toBe(EXIT_OK);
    const request = JSON.parse(asked.stdout) as {
      approvalId: string;
      action: string;
      maker: string;
      preview: Record<string, unknown>;
    };
    expect(request).toMatchObject({ action: 'bulk.submit', maker: operator.username });
    expect(request.preview).toMatchObject({
      payouts: 2,
      total: '200.50',
      newBeneficiaries: 2,
      availableAfter: '799.50',
    });
    expect(await worldOf(merchant)).toEqual({ payouts: 0, batches: 0, available: 100_000n, requests: 1 });
    expect(await queue.getJobCounts()).toEqual(jobsBefore);

    // The maker's own key cannot approve it (an operator may not approve at all; an approver not their own).
    expect((await approve(operator, request.approvalId)).status).toBe(403);
    expect(await worldOf(merchant)).toEqual({ payouts: 0, batches: 0, available: 100_000n, requests: 1 });

    const approved = await approve(approver, request.approvalId);

    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    const payouts = await db.payout.findMany({ where: { merchantId: merchant.merchant.id }, orderBy: { id: 'asc' } });
    expect(payouts.map((p) => [p.transactionId, p.amountPaise, p.beneficiaryIfsc, p.description])).toEqual([
      [a, 10_100n, 'HDFC0001234', 'Salary, June'],
      [b, 9_950n, null, null],
    ]);
    for (const p of payouts) expect(await queue.getJob(`execute-${p.id}`), `job of ${p.transactionId}`).toBeDefined();
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({
      availablePaise: 79_950n,
      reservedPaise: 20_050n,
    });
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    expect(audit.map((e) => [e.action, e.actor])).toEqual(
      expect.arrayContaining([
        ['approval.request', `cli:${operator.username}`],
        ['payout.bulk', `cli:${approver.username}`],
      ]),
    );
  });

  it('when an approver asks with their key, then their own key cannot approve it', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const file = await csvFile([HEADER, `UPI,${uniqueId()},10.00,,,ravi@okaxis,Ravi,,,,`]);
    const asked = await cli(
      approver.key,
      'payout',
      'bulk',
      '--mid',
      merchant.mid,
      '--file',
      file,
      '--why',
      'x',
      '--json',
    );
    expect(asked.status, asked.stderr).toBe(EXIT_OK);
    const { approvalId } = JSON.parse(asked.stdout) as { approvalId: string };

    const own = await approve(approver, approvalId);

    expect(own.status).toBe(403);
    expect(String(own.json.message)).toContain('a second person must approve it');
    expect(await worldOf(merchant)).toEqual({ payouts: 0, batches: 0, available: 100_000n, requests: 1 });
  });

  it('when a line is malformed, or the key is missing or a support user’s, then nothing is asked for', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const bad = await csvFile([
      HEADER,
      `IMPS,${uniqueId()},101.00,123456789012,HDFC1234,,Asha Kumar,,,,`,
      `UPI,${uniqueId()},1.005,,,asha@okhdfc,Asha Kumar,,,,`,
    ]);
    const refused = await cli(operator.key, 'payout', 'bulk', '--mid', merchant.mid, '--file', bad, '--why', 'x');
    expect(refused.status).toBe(EXIT_FAILED);
    expect(refused.stderr).toMatch(/line 2: Ifsc/);
    expect(refused.stderr).toMatch(/line 3: Amount/);

    const good = await csvFile([HEADER, `UPI,${uniqueId()},1.00,,,asha@okhdfc,Asha Kumar,,,,`]);
    const anonymous = await cli(undefined, 'payout', 'bulk', '--mid', merchant.mid, '--file', good, '--why', 'x');
    expect(anonymous.status).toBe(EXIT_FAILED);
    expect(anonymous.stderr).toMatch(/sign in/);
    const bySupport = await cli(support.key, 'payout', 'bulk', '--mid', merchant.mid, '--file', good, '--why', 'x');
    expect(bySupport.status).toBe(EXIT_FAILED);
    expect(bySupport.stderr).toMatch(/may not/);

    expect(await worldOf(merchant)).toEqual({ payouts: 0, batches: 0, available: 100_000n, requests: 0 });
  });
});
