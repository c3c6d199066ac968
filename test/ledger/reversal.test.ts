import { afterAll, describe, expect, it } from 'vitest';
import {
  claimWebhookAttempt,
  findPayoutByTransactionId,
  checkInvariants,
  reversePayout,
  type PayoutSummary,
} from '@payout/db';
import { payoutResult } from '@payout/contract';
import { stringifyJson } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, useApi } from '../support/api.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { markPayoutSuccess } from '../api/contract-expectations.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';
import { payoutAtTheRail, registerEndpoint, settle } from '../webhooks/webhook-fixtures.js';

// A SUCCESS payout that comes back from the beneficiary's bank (docs/api.md, "Payout results";
// docs/reconciliation.md): REVERSED once, the amount back in the main wallet through the ledger, an event
// and a REVERSAL webhook; the lookup, a replay and the webhook say FAILED "reversed by beneficiary bank"
// with the original UTR.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const note = { reason: 'rail: the credit bounced', actor: 'test' };

async function paidPayout(merchant: TestMerchant, amountPaise = 25_000n): Promise<PayoutSummary> {
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise });
  expect((await settle(prisma, payout, 'SUCCESS')).moved).toBe(true);
  return payout;
}

async function stateOf(payoutId: bigint) {
  const { rows } = await pool.query<Record<string, string | null>>(
    `SELECT state::text, status::text, failure_reason::text, bank_reference, settled_at IS NOT NULL AS settled
       FROM payouts WHERE id = $1`,
    [payoutId],
  );
  return rows[0]!;
}

describe('reversePayout', () => {
  it('when a SUCCESS payout is reversed, then it is REVERSED with its UTR, the amount is back in the main wallet, with an event and a REVERSAL webhook', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, merchant, 'https://acme.example/hooks');
    const payout = await paidPayout(merchant);
    const before = await merchantBooks(pool, merchant.merchant.id);

    const result = await reversePayout(prisma, payout.id, { source: 'rail', bankReference: 'RET123', note });

    expect(result).toMatchObject({ moved: true, from: 'SUCCESS' });
    expect(result.webhookDeliveryId).not.toBeNull();
    expect(await stateOf(payout.id)).toEqual({
      state: 'REVERSED',
      status: 'FAILED',
      failure_reason: 'REVERSED_BY_BENEFICIARY_BANK',
      bank_reference: `UTR${payout.ackNo.slice(-9)}`,
      settled: true,
    });
    const after = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(after.available - before.available).toBe(25_000n);
    expect(after.ledgerPaidOut - before.ledgerPaidOut).toBe(-25_000n);
    expect(after.reserved).toBe(before.reserved);
    const { rows: legs } = await pool.query(
      `SELECT account::text, amount_paise::text FROM ledger_entries WHERE payout_id = $1 AND kind = 'PAYOUT_REVERSAL' ORDER BY account`,
      [payout.id],
    );
    expect(legs).toEqual([
      { account: 'MAIN_WALLET', amount_paise: '25000' },
      { account: 'PAID_OUT', amount_paise: '-25000' },
    ]);
    const { rows: events } = await pool.query(
      `SELECT from_state::text, to_state::text, reason, rail_answer FROM payout_events WHERE payout_id = $1 AND to_state = 'REVERSED'`,
      [payout.id],
    );
    expect(events).toEqual([
      {
        from_state: 'SUCCESS',
        to_state: 'REVERSED',
        reason: 'rail: the credit bounced (reported by rail)',
        rail_answer: { bankReference: 'RET123' },
      },
    ]);
    const { rows: deliveries } = await pool.query(
      `SELECT cause::text, status::text, requested_by FROM webhook_deliveries WHERE payout_id = $1 ORDER BY id`,
      [payout.id],
    );
    expect(deliveries).toEqual([
      { cause: 'SETTLEMENT', status: 'PENDING', requested_by: 'settlement' },
      { cause: 'REVERSAL', status: 'PENDING', requested_by: 'reversal:rail' },
    ]);
  });

  it('when the same reversal is reported twice at once, then exactly one goes through and the money returns once', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, merchant, 'https://acme.example/hooks');
    const payout = await paidPayout(merchant);
    const before = await merchantBooks(pool, merchant.merchant.id);

    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        reversePayout(prisma, payout.id, { source: i % 2 ? 'statement' : 'rail', note }),
      ),
    );

    expect(results.filter((r) => r.moved)).toHaveLength(1);
    expect(results.filter((r) => !r.moved).map((r) => r.from)).toEqual(['REVERSED', 'REVERSED', 'REVERSED']);
    const after = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(after.available - before.available).toBe(25_000n);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE payout_id = $1 AND cause = 'REVERSAL'`,
      [payout.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it.each(['SUBMITTING', 'FAILED'] as const)(
    'when a %s payout is reported reversed, then nothing moves and the state that refused is returned',
    async (state) => {
      const merchant = await makeMerchant(prisma, { balance: '1000.00' });
      const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: 25_000n });
      if (state === 'FAILED') await settle(prisma, payout, 'FAILED');
      const before = await merchantBooks(pool, merchant.merchant.id);
      const stateBefore = await stateOf(payout.id);

      const result = await reversePayout(prisma, payout.id, { source: 'statement', note });

      expect(result).toEqual({ moved: false, from: state, webhookDeliveryId: null });
      expect(await stateOf(payout.id)).toEqual(stateBefore);
      expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    },
  );

  it('when the books are reconciled after reversals, then every invariant holds', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await paidPayout(merchant);
    await reversePayout(prisma, payout.id, { source: 'operator', note });
    const report = await checkInvariants(prisma, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
    expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
  });
});

describe('a reversed payout on the wire', () => {
  const lookup = (transactionId: string) => `/api/check_payout_status?TransactionID=${transactionId}`;

  it('when an IMPS payout was reversed, then the lookup answers 200 "Failed" reversed by beneficiary bank with the UTR, and a replay 400 FAILED with the same message', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const body = impsBody({ TransactionID: transactionId });
    expect((await call(api.current, '/api/impspayout', { merchant, body })).status).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, transactionId, '998877665544');
    const payout = await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId);
    expect((await reversePayout(prisma, payout!.id, { source: 'statement', note })).moved).toBe(true);

    const status = await call(api.current, lookup(transactionId), { merchant });
    expect(status.status).toBe(200);
    expect(status.json).toEqual({
      error: false,
      status_code: 200,
      status: 'Failed',
      account: '123456789012',
      ifsc: 'HDFC0001234',
      Amount: '101.00',
      Bankriff: '998877665544',
      Ack_no: payout!.ackNo,
      TransactionID: transactionId,
      mode: 'IMPS',
      message: 'MP007 - Transaction failed: reversed by beneficiary bank',
      reason_code: 'REVERSED_BY_BENEFICIARY_BANK',
      retryable: false,
    });

    const document = (await call(api.current, '/openapi.json')).json as JsonObject;
    expect(documentedBodyErrors(document, '/api/check_payout_status', 'get', status), status.text).toEqual([]);

    const replay = await call(api.current, '/api/impspayout', { merchant, body });
    expect(documentedBodyErrors(document, '/api/impspayout', 'post', replay), replay.text).toEqual([]);
    expect(replay.status).toBe(400);
    expect(replay.json).toEqual({
      error: true,
      status_code: 400,
      status: 'FAILED',
      account: '123456789012',
      ifsc: 'HDFC0001234',
      Amount: '101.00',
      Bankriff: '998877665544',
      Ack_no: payout!.ackNo,
      TransactionID: transactionId,
      message: 'MP007 - Transaction failed: reversed by beneficiary bank',
    });
  });

  it('when a UPI payout was reversed, then a replay answers the FAILED shape with strings, and the lookup "Failed"', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const body = upiBody({ TransactionID: transactionId });
    expect((await call(api.current, '/api/payout', { merchant, body })).status).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, transactionId, '112233445566');
    const payout = await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId);
    expect((await reversePayout(prisma, payout!.id, { source: 'rail', note })).moved).toBe(true);

    const replay = await call(api.current, '/api/payout', { merchant, body });
    const document = (await call(api.current, '/openapi.json')).json as JsonObject;
    expect(documentedBodyErrors(document, '/api/payout', 'post', replay), replay.text).toEqual([]);
    expect(replay.status).toBe(400);
    expect(replay.text).toBe(
      `{"error":true,"status_code":400,"status":"FAILED","account":"asha.kumar@okhdfc","Amount":"101.00",` +
        `"Bankriff":"112233445566","Ack_no":"${payout!.ackNo}","TransactionID":"${transactionId}",` +
        `"message":"MP007 - Transaction failed: reversed by beneficiary bank"}`,
    );
    const status = await call(api.current, lookup(transactionId), { merchant });
    expect(status.json).toMatchObject({
      status: 'Failed',
      Bankriff: '112233445566',
      mode: 'UPI',
      ifsc: '',
      message: 'MP007 - Transaction failed: reversed by beneficiary bank',
    });
  });

  it('when the reversal webhook is claimed, then it carries the payout as it is now: FAILED, reversed by beneficiary bank, with the UTR', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, merchant, 'https://acme.example/hooks');
    const payout = await paidPayout(merchant, 10_100n);
    const reversed = await reversePayout(prisma, payout.id, { source: 'rail', note });

    const claim = await claimWebhookAttempt(prisma, reversed.webhookDeliveryId!, 1, new Date(Date.now() + 60_000));

    expect(claim).not.toBeNull();
    expect(claim!.sequence).toBe(2); // after the settlement's delivery
    expect(claim!.subject.kind).toBe('payout');
    if (claim!.subject.kind !== 'payout') return;
    expect(stringifyJson(payoutResult(claim!.subject.payout).body)).toBe(
      `{"error":true,"status_code":400,"status":"FAILED","account":"asha.kumar@okhdfc","Amount":"101.00",` +
        `"Bankriff":"UTR${payout.ackNo.slice(-9)}","Ack_no":"${payout.ackNo}","TransactionID":"${payout.transactionId}",` +
        `"message":"MP007 - Transaction failed: reversed by beneficiary bank"}`,
    );
  });
});
