import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismaClient } from '@payout/db';
import { adminOf, call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { bearer, personWithKey, type PersonWithKey } from '../support/people.js';

// The admin JSON API's routes for people (docs/operations.md, "Approvals" and "Security model"): bad input
// is a 422 that names the field, an unknown merchant a 404, and nothing changes either way.

const api = useApi();
let db: PrismaClient;
let operator: PersonWithKey;
let merchant: TestMerchant;

beforeAll(async () => {
  db = testPrisma();
  operator = await personWithKey('operator');
  merchant = await makeMerchant(db, { balance: '100.00' });
});
afterAll(() => db.$disconnect());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(adminOf(api.current), path, { body, headers: { ...bearer(operator), ...headers } });

async function world(): Promise<unknown> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT (SELECT count(*) FROM approval_requests)::int AS requests,
           (SELECT count(*) FROM merchants)::int AS merchants,
           (SELECT count(*) FROM ledger_entries)::int AS ledger,
           (SELECT count(*) FROM merchant_tokens WHERE revoked_at IS NULL)::int AS tokens,
           (SELECT string_agg(status::text, ',' ORDER BY id) FROM merchants) AS statuses,
           (SELECT count(*) FROM operator_actions WHERE action <> 'access.refused')::int AS actions`;
  return row;
}

describe('the admin JSON API for people', () => {
  it.each([
    ['a credit without a reference', '/admin/merchants/:mid/credits', { amount: '10.00', why: 'x' }, 'reference'],
    [
      'a credit of three decimals',
      '/admin/merchants/:mid/credits',
      { amount: '10.001', reference: 'R', why: 'x' },
      'amount',
    ],
    [
      'a credit of a negative amount',
      '/admin/merchants/:mid/credits',
      { amount: -5, reference: 'R', why: 'x' },
      'amount',
    ],
    [
      'a credit with an unknown member',
      '/admin/merchants/:mid/credits',
      { amount: '1.00', reference: 'R', why: 'x', operator: 'kiran' },
      'operator',
    ],
    ['a malformed MID', '/admin/merchants/bad%20mid/suspend', { why: 'x' }, 'mid'],
    ['a suspension without a reason', '/admin/merchants/:mid/suspend', {}, 'why'],
    ['a merchant without a name', '/admin/merchants', { mid: 'NEW1' }, 'name'],
    [
      'a resolution as neither success nor failed',
      '/admin/payouts/resolve',
      { mid: ':mid', TransactionID: '1', as: 'maybe', why: 'x' },
      'as',
    ],
    [
      'a resolution with a TransactionID of letters',
      '/admin/payouts/resolve',
      { mid: ':mid', TransactionID: 'abc', as: 'success', why: 'x' },
      'TransactionID',
    ],
    [
      'a failed resolution without its reason',
      '/admin/payouts/resolve',
      { mid: ':mid', TransactionID: '1', as: 'failed', why: 'x' },
      'reason',
    ],
    ['a replay without a TransactionID', '/admin/webhooks/replay', { mid: ':mid' }, 'TransactionID'],
    ['a webhook URL that is no URL', '/admin/merchants/:mid/webhook', { url: 'not a url' }, 'url'],
    [
      'a discrepancy resolution that does not exist',
      '/admin/discrepancies/1/resolve',
      { resolution: 'pay-twice', note: 'x' },
      'resolution',
    ],
  ])('when %s is posted, then it is a 422 naming the field and nothing changes', async (_case, path, body, field) => {
    const before = await world();
    const fill = <T>(v: T): T => JSON.parse(JSON.stringify(v).replaceAll(':mid', merchant.mid)) as T;
    const res = await post(fill(path), fill(body));
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ error: true, status_code: 422 });
    expect(JSON.stringify(res.json.errors)).toContain(field);
    expect(await world()).toEqual(before);
  });

  it('when the body is not JSON, then it is refused and nothing changes', async () => {
    const before = await world();
    const res = await post(`/admin/merchants/${merchant.mid}/credits`, '{"amount": ', {});
    expect(res.status).toBe(400);
    const form = await call(adminOf(api.current), `/admin/merchants/${merchant.mid}/suspend`, {
      method: 'POST',
      headers: { ...bearer(operator), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'why=x',
    });
    expect(form.status).toBe(415);
    expect(await world()).toEqual(before);
  });

  it('when the merchant is unknown, then it is a 404 and nothing changes', async () => {
    const before = await world();
    for (const [path, body] of [
      ['/admin/merchants/NOSUCH404/suspend', { why: 'x' }],
      ['/admin/merchants/NOSUCH404/credits', { amount: '1.00', reference: 'R', why: 'x' }],
      ['/admin/merchants/NOSUCH404/tokens', { why: 'x', tokenDigest: 'a'.repeat(64), tokenPrefix: 'pgt_abcdef' }],
      ['/admin/merchants/NOSUCH404/tokens/1/revoke', { why: 'x' }],
    ] as const) {
      expect((await post(path, body)).status).toBe(404);
    }
    expect(await world()).toEqual(before);
  });

  it('when a credit is asked for, then it is a 202 with the request, and the credit waits for a second person', async () => {
    const res = await post(`/admin/merchants/${merchant.mid}/credits`, {
      amount: 250.5,
      reference: 'NEFT-JSON-1',
      why: 'NEFT in',
    });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({
      error: false,
      status_code: 202,
      approval: {
        action: 'wallet.credit',
        state: 'REQUESTED',
        maker: operator.username,
        preview: { amount: '250.50', availableBefore: '100.00', availableAfter: '350.50' },
      },
    });
    expect((await db.wallet.findUniqueOrThrow({ where: { merchantId: merchant.merchant.id } })).availablePaise).toBe(
      10000n,
    );
  });
});
