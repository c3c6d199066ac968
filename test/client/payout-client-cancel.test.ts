import { afterAll, describe, expect, it } from 'vitest';
import { findPayoutByTransactionId, updateQueueSettings } from '@payout/db';
import { PayoutClient } from '@payout/client';
import { newTransactionId, useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { markPayoutSuccess } from '../api/contract-expectations.js';

// The SDK's cancelPayout over real HTTP against the API (no worker runs, so an accepted payout waits).

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const clientFor = (merchant: TestMerchant) =>
  new PayoutClient({
    baseUrl: api.current.url,
    mid: merchant.mid,
    token: merchant.token,
    retry: { firstDelayMs: 50, maxDelayMs: 200, deadlineMs: 10_000 },
  });

const upi = (TransactionID: string | bigint) => ({
  TransactionID,
  Amount: '101.00',
  Upi: 'asha.kumar@okhdfc',
  Name: 'Asha Kumar',
});

describe('cancelPayout through the client', () => {
  it('when a payout queued for balance is cancelled, then cancelled with the Failed lookup body, and again on a retry', async () => {
    const merchant = await makeMerchant(prisma);
    await updateQueueSettings(prisma, merchant.mid, { queueIfLowBalance: true });
    const client = clientFor(merchant);
    const transactionId = 98765432109876543210123n;
    expect(await client.upiPayout(upi(transactionId))).toMatchObject({ kind: 'pending' });

    const cancelled = await client.cancelPayout(transactionId);
    const again = await client.cancelPayout(transactionId.toString());

    const payout = {
      status: 'Failed',
      TransactionID: '98765432109876543210123',
      message: 'MP007 - Transaction failed: cancelled by you',
      reason_code: 'CANCELLED_BY_MERCHANT',
      retryable: true,
    };
    expect(cancelled).toMatchObject({ kind: 'cancelled', httpStatus: 200, payout });
    expect(again).toMatchObject({ kind: 'cancelled', payout });
    expect(await client.getPayoutStatus(transactionId)).toMatchObject({ kind: 'failed', payout });
  });

  it('when the payout already succeeded, then already_sent naming it; an unknown one is not_found', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const client = clientFor(merchant);
    const transactionId = newTransactionId();
    expect(await client.upiPayout(upi(transactionId))).toMatchObject({ kind: 'pending' });
    await markPayoutSuccess(pool, merchant.merchant.id, transactionId);

    expect(await client.cancelPayout(transactionId)).toMatchObject({
      kind: 'already_sent',
      httpStatus: 409,
      TransactionID: transactionId,
      message: 'The payout was already sent to a bank, so it can no longer be cancelled.',
    });
    expect((await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId))?.state).toBe('SUCCESS');
    const unknown = newTransactionId();
    expect(await client.cancelPayout(unknown)).toMatchObject({ kind: 'not_found', TransactionID: unknown });
  });
});
