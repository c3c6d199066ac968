import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebhookEndpoint, type PrismaClient } from '@payout/db';
import { useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { markPayoutSuccess } from '../api/contract-expectations.js';
import { getPage, payOut, postForm, signedIn, type SignedIn } from './pages-support.js';

// A payout's dashboard page, GET /dashboard/payouts/<TransactionID>, and its cancel (docs/api.md, "Lookups"
// and "Cancelling a payout", which they mirror): this merchant's payout only, values escaped, its timeline
// without internal notes; the cancel refused to a role without `pay`, done exactly once for one with it,
// and refused with a message once a bank has the payout.

const db: PrismaClient = testPrisma();
const pool = testPool();
const api = useApi();

let ours: TestMerchant;
let theirs: TestMerchant;
let theirId: string;
let finance: SignedIn;
let viewer: SignedIn;

const DESCRIPTION = '<script>alert("paid")</script>';

beforeAll(async () => {
  ours = await makeMerchant(db, { balance: '1000.00' });
  theirs = await makeMerchant(db, { balance: '1000.00' });
  theirId = await payOut(api.current, theirs, 'IMPS');
  finance = await signedIn(db, ours, 'FINANCE');
  viewer = await signedIn(db, ours, 'VIEWER');
});
afterAll(async () => {
  await db.$disconnect();
  await pool.end();
});

const page = (path: string, person: SignedIn = viewer) => getPage(api.current.url, path, person);

/** The payout's state, reason, and how many ledger entries gave its amount back to the main wallet. */
async function payoutInDatabase(transactionId: string) {
  const { rows } = await pool.query<{ state: string; failure_reason: string | null; releases: string }>(
    `SELECT p.state::text AS state, p.failure_reason::text AS failure_reason,
            (SELECT count(*) FROM ledger_entries l WHERE l.payout_id = p.id AND l.kind = 'PAYOUT_RELEASE'
                                                    AND l.account = 'MAIN_WALLET') AS releases
       FROM payouts p WHERE p.merchant_id = $1 AND p.transaction_id = $2`,
    [ours.merchant.id, transactionId],
  );
  return rows[0];
}

async function available(): Promise<string> {
  const { rows } = await pool.query<{ available_paise: string }>(
    'SELECT available_paise::text FROM wallets WHERE merchant_id = $1',
    [ours.merchant.id],
  );
  return rows[0]!.available_paise;
}

describe('GET /dashboard/payouts/:transactionId', () => {
  it('shows the payout as its lookup does, its Description escaped, and its timeline without internal notes', async () => {
    const id = await payOut(api.current, ours, 'IMPS', { Amount: '250.75', Description: 'Invoice 7' });
    await pool.query('UPDATE payouts SET description = $3 WHERE merchant_id = $1 AND transaction_id = $2', [
      ours.merchant.id,
      id,
      DESCRIPTION,
    ]);
    await markPayoutSuccess(pool, ours.merchant.id, id, '412345678901');

    const res = await page(`/dashboard/payouts/${id}`);

    expect(res.status).toBe(200);
    expect(res.text).toContain(`<h1>Payout ${id}</h1>`);
    expect(res.text).toContain('₹ 250.75 by IMPS');
    expect(res.text).toContain('Asha Kumar · 123456789012 · HDFC0001234');
    expect(res.text).toContain('<dd>&lt;script>alert(&quot;paid&quot;)&lt;/script></dd>');
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('<p class="what">Accepted</p>');
    expect(res.text).toContain('<p class="what">Sent to the bank</p>');
    expect(res.text).toContain('<p class="what">Paid</p>');
    expect(res.text).toContain('bank reference 412345678901');
    // The events' own reasons and actors are the staff's (markPayoutSuccess writes "test: …" by "test").
    expect(res.text).not.toContain('test: the rail decided');
    expect(res.text).not.toContain('AWAITING_RAIL');
  });

  it('shows each webhook delivery and attempt with its HTTP status, never the attempt’s error or address', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerWebhookEndpoint(
      db,
      merchant.merchant.id,
      {
        url: 'https://hooks.merchant.example/payouts',
        secret: 'whsec_dashboard_test_secret',
        secretPrefix: 'whsec_da',
      },
      0,
    );
    const person = await signedIn(db, merchant, 'FINANCE');
    const id = await payOut(api.current, merchant, 'UPI');
    expect((await postForm(api.current.url, `/dashboard/payouts/${id}/cancel`, person)).status).toBe(303);
    const delivery = await db.webhookDelivery.findFirstOrThrow({
      where: { payout: { merchantId: merchant.merchant.id } },
    });
    // What the worker records of a refused attempt.
    await db.webhookAttempt.create({
      data: {
        deliveryId: delivery.id,
        attempt: 1,
        url: 'https://hooks.merchant.example/payouts',
        statusCode: 502,
        durationMs: 40,
        error: 'ECONNRESET from 10.20.30.40',
      },
    });

    const res = await getPage(api.current.url, `/dashboard/payouts/${id}`, person);

    expect(res.status).toBe(200);
    expect(res.text).toContain(`<p class="what">Webhook ${delivery.sequence} queued</p>`);
    expect(res.text).toContain(`<p class="what">Webhook ${delivery.sequence}, attempt 1</p>`);
    expect(res.text).toContain('your endpoint answered HTTP 502');
    expect(res.text).not.toContain('ECONNRESET');
    expect(res.text).not.toContain('hooks.merchant.example');
  });

  it('is the 404 page for another merchant’s payout, an unknown one and a TransactionID that is not digits', async () => {
    for (const path of [
      `/dashboard/payouts/${theirId}`,
      '/dashboard/payouts/99999999999999999',
      '/dashboard/payouts/12a',
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(res.text).toContain('There is no such page.');
      expect(res.text).not.toContain(theirId);
    }
  });
});

describe('POST /dashboard/payouts/:transactionId/cancel', () => {
  it('refuses a viewer with 403, shows a viewer no cancel form, and changes nothing', async () => {
    const id = await payOut(api.current, ours, 'IMPS');
    const before = await available();
    expect((await page(`/dashboard/payouts/${id}`)).text).not.toContain('Cancel this payout');

    const res = await postForm(api.current.url, `/dashboard/payouts/${id}/cancel`, viewer);

    expect(res.status).toBe(403);
    expect(await payoutInDatabase(id)).toEqual({ state: 'ACCEPTED', failure_reason: null, releases: '0' });
    expect(await available()).toBe(before);
  });

  it('cancels for a finance user exactly once, however often the form is sent', async () => {
    const id = await payOut(api.current, ours, 'IMPS', { Amount: '40.00' });
    const before = BigInt(await available());
    expect((await page(`/dashboard/payouts/${id}`, finance)).text).toContain('Cancel this payout');

    const first = await postForm(api.current.url, `/dashboard/payouts/${id}/cancel`, finance);
    const again = await postForm(api.current.url, `/dashboard/payouts/${id}/cancel`, finance);

    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/dashboard/payouts/${id}?cancel=cancelled`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`/dashboard/payouts/${id}?cancel=already-cancelled`);
    expect(await payoutInDatabase(id)).toEqual({
      state: 'FAILED',
      failure_reason: 'CANCELLED_BY_MERCHANT',
      releases: '1',
    });
    expect(BigInt(await available())).toBe(before + 4000n);
    const shown = await page(first.headers.get('location')!, finance);
    expect(shown.text).toContain('Cancelled: the payout failed as cancelled by you');
    expect(shown.text).toContain('<p class="what">Failed</p>');
    expect(shown.text).not.toContain('Cancel this payout');
  });

  it('refuses with 409 and says why once a bank has the payout, changing nothing', async () => {
    const id = await payOut(api.current, ours, 'IMPS');
    await markPayoutSuccess(pool, ours.merchant.id, id);

    const res = await postForm(api.current.url, `/dashboard/payouts/${id}/cancel`, finance);

    expect(res.status).toBe(409);
    expect(res.text).toContain('Not cancelled: this payout was already sent to a bank');
    expect(await payoutInDatabase(id)).toEqual({ state: 'SUCCESS', failure_reason: null, releases: '0' });
  });

  it('is the 404 page for another merchant’s payout, which stays as it was', async () => {
    const res = await postForm(api.current.url, `/dashboard/payouts/${theirId}/cancel`, finance);

    expect(res.status).toBe(404);
    const { rows } = await pool.query(
      'SELECT state::text FROM payouts WHERE merchant_id = $1 AND transaction_id = $2',
      [theirs.merchant.id, theirId],
    );
    expect(rows).toEqual([{ state: 'ACCEPTED' }]);
  });
});
