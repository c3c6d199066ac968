import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptPayouts, findWallet, listOperatorActions, type PrismaClient } from '@payout/db';
import { createProducerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { useApi } from '../support/api.js';
import { freshSecondFactorCode } from '../support/people.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { upiInstruction } from '../support/payout-instructions.js';

// POST /admin/merchants/:mid/bulk (docs/operations.md, "Bulk payouts from a file"): a person asks for a
// merchant's batch from a CSV file and gets 202 with the request; nothing is reserved or queued until a
// second person approves it, and then exactly its lines are accepted and their jobs queued once the
// approval has committed. The API runs without a worker here, so the jobs stay in the queue to be counted.

const api = useApi();
let db: PrismaClient;
let operator: ConsolePerson;
let approver: ConsolePerson;
let support: ConsolePerson;
const connection = createProducerConnection(process.env.REDIS_URL!);
const queue = new Queue(PAYOUT_QUEUE, { connection, prefix: process.env.QUEUE_PREFIX! });

beforeAll(async () => {
  db = testPrisma();
  operator = await signedInPerson(api.current.adminUrl, 'operator');
  approver = await signedInPerson(api.current.adminUrl, 'approver');
  support = await signedInPerson(api.current.adminUrl, 'support');
});
afterAll(async () => {
  await queue.close();
  connection.disconnect();
  await db.$disconnect();
});

/** A JSON request to the admin listener as a signed-in console person (their cookie and CSRF header). */
/**
 * A JSON post from the person's console session; an approval carries a fresh code of their second factor, as
 * they would type it.
 */
async function asPerson(person: ConsolePerson, path: string, body: object, csrf = person.csrf) {
  const code = path.endsWith('/approve') ? { code: await freshSecondFactorCode(person.username) } : {};
  const res = await fetch(`${api.current.adminUrl}${path}`, {
    method: 'POST',
    headers: { Cookie: person.cookie, 'X-CSRF-Token': csrf, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...code, ...body }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const HEADER = 'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name';
let sequence = 0;
const uniqueId = () => `${Date.now()}${process.pid % 1000}${++sequence}`.slice(0, 30);

async function worldOf(merchant: TestMerchant) {
  return {
    payouts: await db.payout.count({ where: { merchantId: merchant.merchant.id } }),
    batches: await db.bulkBatch.count({ where: { merchantId: merchant.merchant.id } }),
    available: (await findWallet(db, merchant.merchant.id))?.availablePaise,
    requests: await db.approvalRequest.count({ where: { merchantId: merchant.merchant.id } }),
  };
}

/** Asks for a batch as the operator: the request's id. */
async function askFor(merchant: TestMerchant, csv: string): Promise<string> {
  const asked = await asPerson(operator, `/admin/merchants/${merchant.mid}/bulk`, { csv, why: 'salaries' });
  expect(asked.status, JSON.stringify(asked.json)).toBe(202);
  return (asked.json.approval as { id: string }).id;
}

describe('POST /admin/merchants/:mid/bulk', () => {
  it('when an operator asks for a batch, then it is a request that queues nothing until an approver approves it, and then exactly its lines are accepted and queued', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const [a, b] = [uniqueId(), uniqueId()];
    const csv = [
      HEADER,
      `IMPS,${a},300.00,123456789012,HDFC0001234,,Asha Kumar`,
      `UPI,${b},25.50,,,ravi@okaxis,Ravi`,
    ].join('\n');
    const jobsBefore = await queue.getJobCounts();

    const asked = await asPerson(operator, `/admin/merchants/${merchant.mid}/bulk`, {
      csv,
      batchId: '20261127',
      why: 'salaries file mailed by the merchant',
    });

    expect(asked.status, JSON.stringify(asked.json)).toBe(202);
    const approval = asked.json.approval as {
      id: string;
      action: string;
      state: string;
      maker: string;
      preview: Record<string, unknown>;
    };
    expect(approval).toMatchObject({ action: 'bulk.submit', state: 'REQUESTED', maker: operator.username });
    expect(approval.preview).toMatchObject({
      batchId: '20261127',
      payouts: 2,
      total: '325.50',
      newBeneficiaries: 2,
      availableBefore: '1000.00',
      availableAfter: '674.50',
    });
    expect(approval.preview.lines).toEqual([
      {
        line: 2,
        TransactionID: a,
        mode: 'IMPS',
        beneficiary: '123456789012 · HDFC0001234',
        name: 'Asha Kumar',
        amount: '300.00',
        beneficiaryIs: 'new',
      },
      {
        line: 3,
        TransactionID: b,
        mode: 'UPI',
        beneficiary: 'ravi@okaxis',
        name: 'Ravi',
        amount: '25.50',
        beneficiaryIs: 'new',
      },
    ]);
    expect(await worldOf(merchant)).toMatchObject({ payouts: 0, batches: 0, available: 100_000n, requests: 1 });
    expect(await queue.getJobCounts()).toEqual(jobsBefore);

    const approved = await asPerson(approver, `/admin/approvals/${approval.id}/approve`, { note: 'checked' });

    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json.approval).toMatchObject({
      state: 'EXECUTED',
      outcome: { batchId: '20261127', accepted: 2, total: '325.50' },
    });
    const payouts = await db.payout.findMany({ where: { merchantId: merchant.merchant.id }, orderBy: { id: 'asc' } });
    expect(payouts.map((p) => [p.transactionId, p.amountPaise, p.state])).toEqual([
      [a, 30_000n, 'ACCEPTED'],
      [b, 2_550n, 'ACCEPTED'],
    ]);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({
      availablePaise: 67_450n,
      reservedPaise: 32_550n,
    });
    // Queued when the approval returned: the after-commit step, not the sweeper (no worker runs here).
    for (const p of payouts) expect(await queue.getJob(`execute-${p.id}`), `job of ${p.transactionId}`).toBeDefined();
    const batch = await db.bulkBatch.findFirstOrThrow({ where: { merchantId: merchant.merchant.id } });
    expect(batch).toMatchObject({ batchId: '20261127', total: 2 });
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    expect(audit.map((e) => [e.action, e.actor])).toEqual(
      expect.arrayContaining([
        ['approval.request', `admin-api:${operator.username}`],
        ['payout.bulk', `admin-api:${approver.username}`],
      ]),
    );

    // A second approval of the same request runs nothing.
    const again = await asPerson(approver, `/admin/approvals/${approval.id}/approve`, {});
    expect(again.status).toBe(403);
    expect(await db.payout.count({ where: { merchantId: merchant.merchant.id } })).toBe(2);

    // The same BatchID again is refused before anything is asked for.
    const reused = await asPerson(operator, `/admin/merchants/${merchant.mid}/bulk`, {
      csv: `${HEADER}\nUPI,${uniqueId()},1.00,,,ravi@okaxis,Ravi`,
      batchId: '20261127',
      why: 'again',
    });
    expect(reused.status).toBe(409);
    expect(reused.json.message).toContain('BatchID 20261127 was used already');
  });

  it('when payouts of the merchant wait for balance at approval, then the batch, which would wait behind them, is refused and nothing changes', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const id = await askFor(merchant, `${HEADER}\nUPI,${uniqueId()},100.00,,,ravi@okaxis,Ravi`);
    // The merchant queues payouts when its balance is low, and one is waiting now: accept_payouts would queue
    // the batch's lines behind it rather than reserve them.
    await db.merchant.update({ where: { id: merchant.merchant.id }, data: { queueIfLowBalance: true } });
    const [waiting] = await acceptPayouts(db, [upiInstruction(merchant.merchant.id, 500_000n)]);
    expect(waiting!.payout.state).toBe('QUEUED');
    const before = await worldOf(merchant);

    const refused = await asPerson(approver, `/admin/approvals/${id}/approve`, {});

    expect(refused.status).toBe(409);
    expect(refused.json.message).toContain('are waiting for balance');
    expect(await worldOf(merchant)).toEqual(before);
  });

  it('when a file has bad lines, then it is 422 with their line numbers and nothing is asked for', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00', impsMaxPaise: 50_000n });
    const csv = [
      HEADER,
      `IMPS,${uniqueId()},1.234,123456789012,HDFC0001234,,Asha Kumar`,
      `IMPS,${uniqueId()},10.00,123456789012,HDFC0001234,,Asha Kumar`,
    ].join('\n');
    const refused = await asPerson(operator, `/admin/merchants/${merchant.mid}/bulk`, { csv, why: 'x' });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toMatch(/line 2: .*Amount/);
    expect(refused.json.message).not.toMatch(/line 3/);

    const overLimit = await asPerson(operator, `/admin/merchants/${merchant.mid}/bulk`, {
      csv: `${HEADER}\nIMPS,${uniqueId()},600.00,123456789012,HDFC0001234,,Asha Kumar`,
      why: 'x',
    });
    expect(overLimit.status).toBe(422);
    expect(overLimit.json.message).toContain('line 2: Amount must be at most 500.00 for this merchant');

    const short = await asPerson(operator, `/admin/merchants/${merchant.mid}/bulk`, {
      csv: `${HEADER}\nUPI,${uniqueId()},1000.01,,,ravi@okaxis,Ravi`,
      why: 'x',
    });
    expect(short.status).toBe(409);
    expect(short.json.message).toContain('the batch needs 1000.01');

    expect(await worldOf(merchant)).toEqual({ payouts: 0, batches: 0, available: 100_000n, requests: 0 });
  });

  it('when support, a post without its CSRF token, an unknown merchant or a malformed body tries it, then nothing is asked for', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const body = { csv: `${HEADER}\nUPI,${uniqueId()},1.00,,,ravi@okaxis,Ravi`, why: 'x' };
    const path = `/admin/merchants/${merchant.mid}/bulk`;

    expect((await asPerson(support, path, body)).status).toBe(403);
    expect((await asPerson(operator, path, body, 'not-the-token')).status).toBe(403);
    expect((await asPerson(operator, '/admin/merchants/NOSUCHMID/bulk', body)).status).toBe(404);
    const noWhy = await asPerson(operator, path, { csv: body.csv });
    expect(noWhy.status).toBe(422);
    expect(noWhy.json.message).toBeDefined();
    expect((await asPerson(operator, path, { ...body, batchId: 'abc' })).status).toBe(422);
    const stranger = await fetch(`${api.current.adminUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(stranger.status).toBe(401);

    expect(await worldOf(merchant)).toEqual({ payouts: 0, batches: 0, available: 100_000n, requests: 0 });
  });
});
