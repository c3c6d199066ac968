import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, upiBody, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { useStack } from '../support/stack.js';

// Each of the rail simulator's magic values, end to end: POST → 202 → the status lookup reaches the
// expected state; the books balance after every one.
const prisma = testPrisma();
const pool: pg.Pool = testPool();
const stack = useStack();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

async function settled(
  merchant: TestMerchant,
  transactionId: string,
  until: (status: string) => boolean,
): Promise<ApiResponse> {
  return eventually(
    () => call(stack.current.api, `/api/check_payout_status?TransactionID=${transactionId}`, { merchant }),
    (res) => until(res.json.status as string),
    { what: `payout ${transactionId} to settle` },
  );
}

async function payoutRow(merchant: TestMerchant, transactionId: string) {
  const { rows } = await pool.query(
    'SELECT id, ack_no, state, status, failure_reason, bank_reference, submit_attempts FROM payouts WHERE merchant_id = $1 AND transaction_id = $2',
    [merchant.merchant.id, transactionId],
  );
  return rows[0] as {
    id: string;
    ack_no: string;
    state: string;
    failure_reason: string | null;
    bank_reference: string | null;
  };
}

const final = (status: string) => status === 'Success' || status === 'Failed';

describe('magic values end to end', () => {
  it('when an ordinary IMPS payout is sent, then it settles SUCCESS with a 12-digit Bankriff and the money leaves the books', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody({ Amount: '250.00' });
    const accepted = await call(stack.current.api, '/api/impspayout', { merchant, body });
    expect(accepted.status).toBe(202);

    const lookup = await settled(merchant, body.TransactionID, final);
    expect(lookup.json).toMatchObject({
      status: 'Success',
      Bankriff: expect.stringMatching(/^[0-9]{12}$/),
      message: 'MP00 - Transaction successful',
    });
    const replay = await call(stack.current.api, '/api/impspayout', { merchant, body });
    expect(replay.status).toBe(200);
    expect(replay.json).toMatchObject({ status: 'SUCCESS', Bankriff: lookup.json.Bankriff });

    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books).toMatchObject({ available: 75000n, reserved: 0n, ledgerPaidOut: 25000n });
    const row = await payoutRow(merchant, body.TransactionID);
    expect(stack.current.railSim.payout(row.ack_no)).toMatchObject({ status: 'SUCCESS', submissions: 1 });
  });

  it('when the amount ends in .11, then it settles FAILED (declined) and the reservation comes back exactly once', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = upiBody({ Amount: '10.11' });
    expect((await call(stack.current.api, '/api/payout', { merchant, body })).status).toBe(202);

    const lookup = await settled(merchant, body.TransactionID, final);
    expect(lookup.json).toMatchObject({
      status: 'Failed',
      Bankriff: '',
      message: 'MP007 - Transaction failed: declined by beneficiary bank',
    });
    const wallet = await call(stack.current.api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant });
    expect(wallet.json.mainwallet).toBe('100.00');
    const { rows } = await pool.query(
      `SELECT kind, count(*)::int AS n FROM ledger_entries WHERE payout_id = (SELECT id FROM payouts WHERE merchant_id = $1 AND transaction_id = $2) GROUP BY kind ORDER BY kind::text`,
      [merchant.merchant.id, body.TransactionID],
    );
    expect(rows).toEqual([
      { kind: 'PAYOUT_RELEASE', n: 2 },
      { kind: 'PAYOUT_RESERVE', n: 2 },
    ]);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when the amount ends in .22, then it is PENDING at first and SUCCESS once the bank decides', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '10.22' });
    await call(stack.current.api, '/api/impspayout', { merchant, body });
    await eventually(
      () => payoutRow(merchant, body.TransactionID),
      (r) => r.state === 'AWAITING_RAIL',
      { what: 'AWAITING_RAIL' },
    );
    const pending = await call(stack.current.api, `/api/check_payout_status?TransactionID=${body.TransactionID}`, {
      merchant,
    });
    expect(pending.json.status).toBe('Pending');

    const lookup = await settled(merchant, body.TransactionID, final);
    expect(lookup.json.status).toBe('Success');
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when the amount ends in .33 (submit reply lost), then one payment happens at the rail, SUCCESS, no refund', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = upiBody({ Amount: '10.33' });
    await call(stack.current.api, '/api/payout', { merchant, body });

    const lookup = await settled(merchant, body.TransactionID, final);
    expect(lookup.json.status).toBe('Success');
    const row = await payoutRow(merchant, body.TransactionID);
    expect(stack.current.railSim.payout(row.ack_no)).toMatchObject({ status: 'SUCCESS', submissions: 1 });
    const { rows: events } = await pool.query('SELECT to_state FROM payout_events WHERE payout_id = $1 ORDER BY id', [
      row.id,
    ]);
    expect(events.map((e) => e.to_state)).toContain('OUTCOME_UNKNOWN');
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books).toMatchObject({ available: 8967n, ledgerPaidOut: 1033n, reserved: 0n });
  });

  it('when the amount ends in .44 (rail 503 twice), then the same reference is sent again and pays once', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '10.44' });
    await call(stack.current.api, '/api/impspayout', { merchant, body });

    const lookup = await settled(merchant, body.TransactionID, final);
    expect(lookup.json.status).toBe('Success');
    const row = await payoutRow(merchant, body.TransactionID);
    const atRail = stack.current.railSim.payout(row.ack_no);
    expect(atRail?.status).toBe('SUCCESS');
    expect(stack.current.railSim.payouts().filter((p) => p.reference === row.ack_no)).toHaveLength(1);
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.ledgerPaidOut).toBe(1044n);
  });

  it('when the amount ends in .55 (pending for ever), then it stays PENDING with inquiries going on', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '10.55' });
    await call(stack.current.api, '/api/impspayout', { merchant, body });
    const row = await eventually(
      () =>
        pool.query('SELECT id, state, inquiry_attempts FROM payouts WHERE merchant_id = $1 AND transaction_id = $2', [
          merchant.merchant.id,
          body.TransactionID,
        ]),
      (r) => (r.rows[0]?.inquiry_attempts ?? 0) >= 3,
      { what: 'three inquiries' },
    );
    expect(row.rows[0].state).toBe('AWAITING_RAIL');
    const lookup = await call(stack.current.api, `/api/check_payout_status?TransactionID=${body.TransactionID}`, {
      merchant,
    });
    expect(lookup.json.status).toBe('Pending');
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when the IMPS account starts with 0000, then it fails as an invalid beneficiary account', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Account: '000012345678', Amount: '5.00' });
    await call(stack.current.api, '/api/impspayout', { merchant, body });
    const lookup = await settled(merchant, body.TransactionID, final);
    expect(lookup.json.message).toBe('MP007 - Transaction failed: invalid beneficiary account');
    expect((await expectBooksBalanced(pool, merchant.merchant.id)).available).toBe(10000n);
  });

  it('when the UPI address starts with invalid, then it fails as an invalid UPI address', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = upiBody({ Upi: 'invalid.person@okicici', Amount: '5.00' });
    await call(stack.current.api, '/api/payout', { merchant, body });
    const lookup = await settled(merchant, body.TransactionID, final);
    expect(lookup.json.message).toBe('MP007 - Transaction failed: invalid UPI address');
    const replay = await call(stack.current.api, '/api/payout', { merchant, body });
    expect(replay.status).toBe(400);
    expect(replay.json).toMatchObject({ status: 'FAILED', Amount: '5.00', TransactionID: body.TransactionID });
  });

  it('when every payout has settled, then each has exactly one event trail from ACCEPTED to its end', async () => {
    const { rows } = await pool.query(`
      SELECT p.id, p.state, array_agg(e.to_state::text ORDER BY e.id) AS trail
        FROM payouts p JOIN payout_events e ON e.payout_id = p.id
       WHERE p.status <> 'PENDING' AND p.failure_reason IS DISTINCT FROM 'INSUFFICIENT_BALANCE'
       GROUP BY p.id, p.state`);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      expect(row.trail[0]).toBe('ACCEPTED');
      expect(row.trail.at(-1)).toBe(row.state);
      expect(row.trail.filter((s: string) => s === 'SUCCESS' || s === 'FAILED')).toHaveLength(1);
    }
  });
});
