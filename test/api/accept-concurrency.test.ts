import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, useApi } from '../support/api.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';

const prisma = testPrisma();
const pool: pg.Pool = testPool();
const api = useApi({ DATABASE_POOL_SIZE: '20' });
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

describe('accepting payouts concurrently', () => {
  it('when 50 identical IMPS requests arrive at once, then there is one payout, one reservation and 50 consistent answers', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody({ Amount: '250.00' });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call(api.current, '/api/impspayout', { merchant, body })),
    );

    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(202));
    expect(new Set(answers.map((a) => a.json.Ack_no)).size).toBe(1);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);

    const { rows: payouts } = await pool.query('SELECT id FROM payouts WHERE merchant_id = $1', [merchant.merchant.id]);
    expect(payouts).toHaveLength(1);
    const { rows: reservations } = await pool.query(
      `SELECT count(*)::int AS n FROM ledger_entries WHERE merchant_id = $1 AND kind = 'PAYOUT_RESERVE'`,
      [merchant.merchant.id],
    );
    expect(reservations[0].n).toBe(2); // one entry: two legs
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.available).toBe(75000n);
    expect(books.reserved).toBe(25000n);
  });

  it('when 100 payouts of 10.00 race for a balance of 370.00, then exactly 37 are accepted and 63 fail for balance', async () => {
    const merchant = await makeMerchant(prisma, { balance: '370.00' });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(api.current, i % 2 ? '/api/impspayout' : '/api/payout', {
          merchant,
          body: i % 2 ? impsBody({ Amount: '10.00' }) : upiBody({ Amount: 10 }),
        }),
      ),
    );

    const accepted = answers.filter((a) => a.status === 202);
    const failed = answers.filter((a) => a.status === 400);
    expect(accepted).toHaveLength(37);
    expect(failed).toHaveLength(63);
    for (const f of failed) {
      expect(f.json.message).toBe('MP007 - Transaction failed: insufficient balance in main wallet');
    }

    const wallet = await call(api.current, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant });
    expect(wallet.json.mainwallet).toBe('0.00');
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.reserved).toBe(37000n);

    const { rows } = await pool.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM payouts WHERE merchant_id = $1 GROUP BY status ORDER BY status::text',
      [merchant.merchant.id],
    );
    expect(rows).toEqual([
      { status: 'FAILED', n: 63 },
      { status: 'PENDING', n: 37 },
    ]);
  });

  it('when the same TransactionID arrives concurrently with different amounts, then one payout wins and the others conflict', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const answers = await Promise.all(
      ['10.00', '20.00', '30.00', '40.00'].map((Amount) =>
        call(api.current, '/api/impspayout', { merchant, body: impsBody({ TransactionID: transactionId, Amount }) }),
      ),
    );
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3);
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    const winner = answers.find((a) => a.status === 202)!;
    expect(books.reserved).toBe(BigInt(Number.parseFloat(winner.json.Amount as string) * 100));
  });
});
