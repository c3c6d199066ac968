import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutClient } from '@payout/client';
import { openBankDowntime, resolveBankDowntime } from '@payout/db';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, useApi } from '../support/api.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';
import {
  CONTRACT_MESSAGES,
  expectJson,
  invalidMidBody,
  markPayoutSuccess,
  unauthorizedBody,
} from './contract-expectations.js';

// CONTRACT.md "Several banks" on the wire (docs/api.md, "Downtimes" and "Lookups"): GET /api/downtimes, and the
// status lookup's additions — `bank` once a payout was sent, `reason_code` and `retryable` once it failed, the
// held message while it waits for a bank. Each answer is also checked against the OpenAPI document.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
let document: JsonObject;
let merchant: TestMerchant;

beforeAll(async () => {
  document = (await call(api.current, '/openapi.json')).json;
  merchant = await makeMerchant(prisma, { balance: '1000.00' });
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const lookup = (transactionId: string) => `/api/check_payout_status?TransactionID=${transactionId}`;

async function accepted(mode: 'IMPS' | 'UPI' = 'IMPS'): Promise<{ transactionId: string; ackNo: string }> {
  const transactionId = newTransactionId();
  const res = await call(api.current, mode === 'IMPS' ? '/api/impspayout' : '/api/payout', {
    merchant,
    body: mode === 'IMPS' ? impsBody({ TransactionID: transactionId }) : upiBody({ TransactionID: transactionId }),
  });
  expect(res.status).toBe(202);
  return { transactionId, ackNo: res.json.Ack_no as string };
}

describe('GET /api/downtimes', () => {
  it('when no bank is down, then 200 with an empty list', async () => {
    const res = await call(api.current, '/api/downtimes', { merchant });
    expectJson(res, 200, { error: false, status_code: 200, status: 'Success', downtimes: [] });
    expect(documentedBodyErrors(document, '/api/downtimes', 'get', res)).toEqual([]);
  });

  it('when downtimes are open, then 200 lists each with mode, bank, since and status, oldest first, and a resolved one is gone', async () => {
    await openBankDowntime(prisma, { bank: 'primary', mode: 'UPI', status: 'DOWN' });
    await openBankDowntime(prisma, { bank: 'secondary', mode: 'IMPS', status: 'DEGRADED' });
    const open = await prisma.bankDowntime.findMany({ where: { resolvedAt: null }, orderBy: { id: 'asc' } });

    const res = await call(api.current, '/api/downtimes', { merchant });
    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'Success',
      downtimes: [
        { mode: 'UPI', bank: 'primary', since: open[0]!.since.toISOString(), status: 'DOWN' },
        { mode: 'IMPS', bank: 'secondary', since: open[1]!.since.toISOString(), status: 'DEGRADED' },
      ],
    });
    expect(documentedBodyErrors(document, '/api/downtimes', 'get', res)).toEqual([]);

    // The merchant SDK reads the same list.
    const client = new PayoutClient({ baseUrl: api.current.url, mid: merchant.mid, token: merchant.token });
    expect(await client.getDowntimes()).toMatchObject({
      kind: 'found',
      httpStatus: 200,
      downtimes: res.json.downtimes,
    });

    await resolveBankDowntime(prisma, { bank: 'primary', mode: 'UPI' });
    await resolveBankDowntime(prisma, { bank: 'secondary', mode: 'IMPS' });
    expect((await call(api.current, '/api/downtimes', { merchant })).json.downtimes).toEqual([]);
    expect(await client.getDowntimes()).toMatchObject({ kind: 'found', downtimes: [] });
  });

  it('when the credentials are wrong or the MID malformed, then 401 or 400 as on every merchant operation; another method is 405', async () => {
    const wrong = await call(api.current, '/api/downtimes', { headers: { MID: merchant.mid, Token: 'pgt_wrong' } });
    expectJson(wrong, 401, unauthorizedBody);
    const malformed = await call(api.current, '/api/downtimes', { headers: { MID: 'no spaces!', Token: 'x' } });
    expectJson(malformed, 400, invalidMidBody('FAILED'));
    expect((await call(api.current, '/api/downtimes', { method: 'POST', merchant, body: {} })).status).toBe(405);
  });
});

describe('the status lookup of a payout with a bank', () => {
  it('when a payout was sent to a bank and paid, then the lookup adds that bank, and no reason', async () => {
    const { transactionId, ackNo } = await accepted();
    await markPayoutSuccess(pool, merchant.merchant.id, transactionId, '412345678901');
    await pool.query(`UPDATE payouts SET bank = 'secondary' WHERE ack_no = $1`, [ackNo]);

    const res = await call(api.current, lookup(transactionId), { merchant });
    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'Success',
      account: '123456789012',
      ifsc: 'HDFC0001234',
      Amount: '101.00',
      Bankriff: '412345678901',
      Ack_no: ackNo,
      TransactionID: transactionId,
      mode: 'IMPS',
      message: CONTRACT_MESSAGES.success,
      bank: 'secondary',
    });
    expect(documentedBodyErrors(document, '/api/check_payout_status', 'get', res)).toEqual([]);
  });

  it('when a payout is held for a downtime, then the lookup is Pending with the held message, and in progress again once sent', async () => {
    const { transactionId, ackNo } = await accepted('UPI');
    await pool.query(`UPDATE payouts SET held_since = now() WHERE ack_no = $1`, [ackNo]);

    const held = await call(api.current, lookup(transactionId), { merchant });
    expect(held.json).toMatchObject({
      status: 'Pending',
      message: 'MP006 - Your transaction is held: the bank for this mode is down; it will be sent when it recovers',
    });
    expect(held.json).not.toHaveProperty('bank');
    expect(held.json).not.toHaveProperty('reason_code');
    expect(documentedBodyErrors(document, '/api/check_payout_status', 'get', held)).toEqual([]);

    // Sent at last: no longer held, whatever held_since still says.
    await pool.query(
      `UPDATE payouts SET state = 'SUBMITTING', submit_attempts = 1, bank = 'primary' WHERE ack_no = $1`,
      [ackNo],
    );
    const sent = await call(api.current, lookup(transactionId), { merchant });
    expect(sent.json).toMatchObject({ status: 'Pending', message: CONTRACT_MESSAGES.pending, bank: 'primary' });
  });
});
