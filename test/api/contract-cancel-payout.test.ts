import { afterAll, describe, expect, it } from 'vitest';
import { claimPayoutForBank, findPayoutByTransactionId, transitionPayout, updateQueueSettings } from '@payout/db';
import { webhookJobs } from '@payout/queue';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { call, impsBody, newTransactionId, upiBody, useApi } from '../support/api.js';
import { registerEndpoint } from '../webhooks/webhook-fixtures.js';
import { CONTRACT_MESSAGES, expectJson, markPayoutSuccess, notFoundBody } from './contract-expectations.js';

// Contract of POST /api/payout/cancel: docs/api.md, "Cancelling a payout". No worker runs here, so an accepted
// payout stays unsent until a test claims it as the worker would.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const CANCELLED = 'MP007 - Transaction failed: cancelled by you';
const ALREADY_SENT = 'The payout was already sent to a bank, so it can no longer be cancelled.';

const cancel = (merchant: TestMerchant, TransactionID: unknown) =>
  call(api.current, '/api/payout/cancel', { merchant, body: { TransactionID } });

async function acceptImps(merchant: TestMerchant, transactionId = newTransactionId()) {
  const accepted = await call(api.current, '/api/impspayout', {
    merchant,
    body: impsBody({ TransactionID: transactionId }),
  });
  expect(accepted.status).toBe(202);
  return { transactionId, ackNo: accepted.json.Ack_no };
}

async function availablePaise(merchant: TestMerchant): Promise<bigint> {
  const wallet = await prisma.wallet.findUnique({ where: { merchantId: merchant.merchant.id } });
  return wallet?.availablePaise ?? 0n;
}

async function ledgerKinds(merchant: TestMerchant, transactionId: string): Promise<string[]> {
  const payout = await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId);
  const entries = await prisma.ledgerEntry.findMany({ where: { payoutId: payout!.id }, orderBy: { id: 'asc' } });
  return [...new Set(entries.map((e) => e.kind))];
}

const cancelledBody = (transactionId: string, ackNo: unknown) => ({
  error: false,
  status_code: 200,
  status: 'Failed',
  account: '123456789012',
  ifsc: 'HDFC0001234',
  Amount: '101.00',
  Bankriff: '',
  Ack_no: ackNo,
  TransactionID: transactionId,
  mode: 'IMPS',
  message: CANCELLED,
  reason_code: 'CANCELLED_BY_MERCHANT',
  retryable: true,
});

describe('POST /api/payout/cancel of a payout no bank was sent', () => {
  it('when an accepted payout is cancelled, then 200 with its lookup body Failed "cancelled by you", the amount back in the main wallet, and its webhook recorded and queued', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, merchant, 'https://acme.example/hooks');
    const { transactionId, ackNo } = await acceptImps(merchant);
    expect(await availablePaise(merchant)).toBe(100_000n - 10_100n);

    const res = await cancel(merchant, transactionId);

    expectJson(res, 200, cancelledBody(transactionId, ackNo));
    const lookup = await call(api.current, `/api/check_payout_status?TransactionID=${transactionId}`, { merchant });
    expectJson(lookup, 200, cancelledBody(transactionId, ackNo));
    expect(await availablePaise(merchant)).toBe(100_000n);
    expect(await ledgerKinds(merchant, transactionId)).toEqual(['PAYOUT_RESERVE', 'PAYOUT_RELEASE']);
    const payout = await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId);
    const deliveries = await prisma.webhookDelivery.findMany({ where: { payoutId: payout!.id } });
    expect(deliveries).toMatchObject([{ cause: 'SETTLEMENT', status: 'PENDING', requestedBy: 'merchant cancel' }]);
    const job = await api.current.deps.webhookQueue.getJob(webhookJobs.deliver.jobId(String(deliveries[0]!.id), 1));
    expect(job?.data).toEqual({ deliveryId: String(deliveries[0]!.id), attempt: 1 });
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when the same payout is cancelled again, then the same 200 answer, and nothing is released or told twice', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, merchant, 'https://acme.example/hooks');
    const { transactionId, ackNo } = await acceptImps(merchant);

    const first = await cancel(merchant, transactionId);
    const again = await cancel(merchant, transactionId);

    expectJson(first, 200, cancelledBody(transactionId, ackNo));
    expectJson(again, 200, cancelledBody(transactionId, ackNo));
    expect(await availablePaise(merchant)).toBe(100_000n);
    const payout = await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId);
    expect(await prisma.ledgerEntry.count({ where: { payoutId: payout!.id, kind: 'PAYOUT_RELEASE' } })).toBe(2);
    expect(await prisma.webhookDelivery.count({ where: { payoutId: payout!.id } })).toBe(1);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when the TransactionID is sent as a JSON number, then the payout it names is cancelled', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = `9${newTransactionId().slice(1, 20)}`;
    const { ackNo } = await acceptImps(merchant, transactionId);

    const res = await call(api.current, '/api/payout/cancel', { merchant, body: `{"TransactionID":${transactionId}}` });

    expectJson(res, 200, cancelledBody(transactionId, ackNo));
  });

  it('when a payout queued for balance is cancelled, then it fails "cancelled by you" with nothing to release', async () => {
    const merchant = await makeMerchant(prisma);
    await updateQueueSettings(prisma, merchant.mid, { queueIfLowBalance: true });
    const transactionId = newTransactionId();
    const queued = await call(api.current, '/api/payout', {
      merchant,
      body: upiBody({ TransactionID: transactionId }),
    });
    expect(queued.status).toBe(202);

    const res = await cancel(merchant, transactionId);

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'Failed', message: CANCELLED, reason_code: 'CANCELLED_BY_MERCHANT' });
    expect(await ledgerKinds(merchant, transactionId)).toEqual([]);
    expect(await availablePaise(merchant)).toBe(0n);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });
});

describe('POST /api/payout/cancel refused', () => {
  it('when a worker has claimed the payout for a bank, then 409 CONFLICT naming it, and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const { transactionId } = await acceptImps(merchant);
    const payout = await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId);
    await transitionPayout(
      prisma,
      payout!.id,
      'SUBMITTING',
      { nextCheckAt: new Date(Date.now() + 60_000) },
      {
        reason: 'test: claimed for the rail',
        actor: 'test',
      },
    );

    const res = await cancel(merchant, transactionId);

    expectJson(res, 409, {
      error: true,
      status_code: 409,
      status: 'CONFLICT',
      message: ALREADY_SENT,
      TransactionID: transactionId,
    });
    expect((await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId))?.state).toBe('SUBMITTING');
    expect(await ledgerKinds(merchant, transactionId)).toEqual(['PAYOUT_RESERVE']);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when the payout already succeeded, then 409 and it stays Success', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const { transactionId } = await acceptImps(merchant);
    await markPayoutSuccess(pool, merchant.merchant.id, transactionId);

    const res = await cancel(merchant, transactionId);

    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ status: 'CONFLICT', message: ALREADY_SENT, TransactionID: transactionId });
    expect((await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId))?.state).toBe('SUCCESS');
  });

  it('when no payout has the TransactionID, or only another merchant’s has, then 404 and the other merchant’s payout is untouched', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const other = await makeMerchant(prisma, { balance: '1000.00' });
    const { transactionId } = await acceptImps(other);
    const unknown = newTransactionId();

    expectJson(await cancel(merchant, unknown), 404, notFoundBody(unknown));
    expectJson(await cancel(merchant, transactionId), 404, notFoundBody(transactionId));
    expect((await findPayoutByTransactionId(prisma, other.merchant.id, transactionId))?.state).toBe('ACCEPTED');
  });

  it('when the request is malformed, then the usual bodies: 422 for a bad TransactionID, 400 for a body that is not an object, 415, 405, 401', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const path = '/api/payout/cancel';

    const missing = await call(api.current, path, { merchant, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.json).toMatchObject({ status: 'VALIDATION ERROR', errors: [{ field: 'TransactionID' }] });
    expect((await cancel(merchant, '12ab')).status).toBe(422);
    expect((await call(api.current, path, { merchant, body: '[1]' })).status).toBe(400);
    const text = await call(api.current, path, { merchant, body: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect((await call(api.current, path, { merchant, method: 'GET' })).status).toBe(405);
    const stranger = await call(api.current, path, { body: { TransactionID: '1' } });
    expect(stranger.status).toBe(401);
    expect(stranger.json).toMatchObject({ message: CONTRACT_MESSAGES.unauthenticated });
  });
});

describe('POST /api/payout/cancel racing the worker', () => {
  it('when cancels and the worker’s claims race over the same payouts, then each payout is either cancelled or sent, never both, and the books balance', async () => {
    const merchant = await makeMerchant(prisma, { balance: '5000.00' });
    const payouts = await Promise.all(Array.from({ length: 30 }, () => acceptImps(merchant)));
    const ids = await Promise.all(
      payouts.map(async (p) => (await findPayoutByTransactionId(prisma, merchant.merchant.id, p.transactionId))!.id),
    );
    const decision = { bank: 'primary', score: null, reason: 'only-bank', at: new Date().toISOString() } as const;

    const [cancels, claims] = await Promise.all([
      Promise.all(payouts.map((p) => cancel(merchant, p.transactionId))),
      Promise.all(
        ids.map((id) =>
          claimPayoutForBank(prisma, id, {
            onlyFrom: ['ACCEPTED'],
            nextCheckAt: new Date(Date.now() + 60_000),
            routes: { routes: { IMPS: { decision, reason: 'test: the worker claims it' } }, pinned: null },
            holdNextCheckAt: new Date(Date.now() + 60_000),
            actor: 'test-worker',
          }),
        ),
      ),
    ]);

    for (const [i, p] of payouts.entries()) {
      const state = (await findPayoutByTransactionId(prisma, merchant.merchant.id, p.transactionId))!.state;
      const cancelled = cancels[i]!.status === 200;
      expect({ cancelled, claimed: claims[i]!.moved, state }).toEqual(
        cancelled
          ? { cancelled: true, claimed: false, state: 'FAILED' }
          : { cancelled: false, claimed: true, state: 'SUBMITTING' },
      );
      if (!cancelled) expect(cancels[i]!.status).toBe(409);
    }
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    const sent = claims.filter((c) => c.moved).length;
    expect(books.reserved).toBe(BigInt(sent) * 10_100n);
  });
});
