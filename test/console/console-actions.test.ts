import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchantToken } from '@payout/client';
import { findWallet, listOperatorActions, transitionPayout, type PrismaClient } from '@payout/db';
import { payoutJobs } from '@payout/queue';
import { call } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { consoleSession, signedInPerson, type ConsolePerson } from '../support/console.js';
import { useStack } from '../support/stack.js';
import { payoutAtTheRail, registerEndpoint, settle } from '../webhooks/webhook-fixtures.js';

// The console's operator actions over HTTP, as a browser without JavaScript sends them (form posts with
// the session's CSRF token): each changes what it says, writes the audit log, and refuses bad input
// without changing anything.

const stack = useStack();
let db: PrismaClient;
let cookie: string;
let approver: ConsolePerson;

const admin = (path: string) => `${stack.current.api.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  cookie = await consoleSession(stack.current.api.adminUrl, 'kiran', 'operator');
  approver = await signedInPerson(stack.current.api.adminUrl, 'approver');
});

/** A second person approves the request the last post led to (its page's path). */
async function approve(requestPath: string) {
  return approver.post(`${requestPath}/approve`, { note: 'checked the bank statement' });
}
afterAll(() => db.$disconnect());

async function page(path: string): Promise<{ status: number; html: string; location: string | null }> {
  const res = await fetch(admin(path), { headers: { Cookie: cookie }, redirect: 'manual' });
  return { status: res.status, html: await res.text(), location: res.headers.get('location') };
}

/** Opens the action's confirmation page, then posts its form with the page's CSRF token. */
async function act(path: string, fields: Record<string, string>) {
  const confirmation = await page(path);
  expect(confirmation.status).toBe(200);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(confirmation.html)![1]!;
  const res = await fetch(admin(path), {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, html: await res.text(), location: res.headers.get('location') };
}

describe('console actions', () => {
  it('when an operator asks for a wallet credit, then it waits for an approver, is credited once per reference, audited, and bad amounts change nothing', async () => {
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const path = `/console/merchants/${merchant.mid}/credit`;
    const requested = await act(path, { amount: '250.50', reference: 'NEFT-778', why: 'top-up received' });
    expect(requested.status).toBe(303);
    expect(requested.location).toMatch(/^\/console\/approvals\/[0-9]+$/);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 10000n });
    const request = await page(requested.location!);
    expect(request.html).toContain('Credit 250.50 to the main wallet of');
    expect(request.html).toContain('350.50');

    expect((await approve(requested.location!)).status).toBe(303);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 35050n });
    const again = await act(path, { amount: '250.50', reference: 'NEFT-778', why: 'double click' });
    expect(again.status).toBe(200);
    expect(again.html).toContain('was credited before; nothing changed');
    const conflict = await act(path, { amount: '9.00', reference: 'NEFT-778', why: 'typo' });
    expect(conflict.status).toBe(409);
    for (const amount of ['-1', '0', '1.234', 'ten', '']) {
      expect((await act(path, { amount, reference: `BAD-${amount}`, why: 'bad' })).status).toBe(422);
    }
    expect((await act(path, { amount: '1.00', reference: 'NO-WHY', why: '  ' })).status).toBe(422);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 35050n });
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    expect(audit.map((a) => [a.action, a.actor, a.reason])).toEqual([
      ['approval.approve', `console:${approver.username}`, 'checked the bank statement'],
      ['wallet.credit', `console:${approver.username}`, 'top-up received'],
      ['approval.request', 'console:kiran', 'top-up received'],
    ]);
    expect((await page(`/console/merchants/${merchant.mid}`)).html).toContain('NEFT-778');
  });

  it('when an operator replays a webhook and re-queues an inquiry, then the delivery and the job exist and both are audited', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, 'http://127.0.0.1:1/hooks');
    const settled = await payoutAtTheRail(db, merchant);
    await settle(db, settled, 'SUCCESS');
    const waiting = await payoutAtTheRail(db, merchant);
    await transitionPayout(
      db,
      waiting.id,
      'AWAITING_RAIL',
      { nextCheckAt: new Date(Date.now() + 3_600_000) },
      {
        reason: 'test',
        actor: 'test',
      },
    );

    const replayed = await act(`/console/payouts/${settled.ackNo}/replay-webhook`, { why: 'merchant lost it' });
    expect(replayed).toMatchObject({ status: 303, location: `/console/payouts/${settled.ackNo}` });
    expect(await db.webhookDelivery.count({ where: { payoutId: settled.id, cause: 'REPLAY' } })).toBe(1);
    const notSettled = await act(`/console/payouts/${waiting.ackNo}/replay-webhook`, { why: 'too early' });
    expect(notSettled.status).toBe(409);

    const requeued = await act(`/console/payouts/${waiting.ackNo}/requeue-inquiry`, { why: 'merchant chasing' });
    expect(requeued.status).toBe(303);
    const job = await stack.current.api.deps.producer.queue.getJob(payoutJobs.inquire.jobId(waiting.id.toString(), 1));
    expect(job?.data).toEqual({ payoutId: waiting.id.toString(), attempt: 1 });
    expect((await act(`/console/payouts/${settled.ackNo}/requeue-inquiry`, { why: 'settled' })).status).toBe(409);

    const actions = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    expect(actions.map((a) => a.action).sort()).toEqual(['inquiry.requeue', 'webhook.replay']);
    const story = (await page(`/console/payouts/${settled.ackNo}`)).html;
    expect(story).toContain('webhook.replay by console:kiran');
    expect(story).toContain('merchant lost it');
  });

  it('when an operator asks to register a merchant-made token and an approver approves, then it works, the others are revoked, revoking needs no approval, and no page or record holds a token', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const made = await newMerchantToken();
    const requested = await act(`/console/merchants/${merchant.mid}/tokens/rotate`, {
      why: 'merchant lost its keys',
      tokenPrefix: made.prefix,
      tokenDigest: made.sha256,
    });
    expect(requested.status).toBe(303);
    expect(await db.merchantToken.count({ where: { merchantId: merchant.merchant.id } })).toBe(1);
    const issued = await approve(requested.location!);
    expect(issued.status).toBe(303);
    expect(issued.html).not.toContain(made.token);
    const wallet = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';
    expect((await call(stack.current.api, wallet, { merchant: { mid: merchant.mid, token: made.token } })).status).toBe(
      200,
    );
    expect((await page(`/console/merchants/${merchant.mid}`)).html).not.toContain(made.token);
    expect((await page(requested.location!)).html).not.toContain(made.token);

    const [old, fresh] = await db.merchantToken.findMany({
      where: { merchantId: merchant.merchant.id },
      orderBy: { id: 'asc' },
    });
    expect(old!.revokedAt).not.toBeNull();
    const revoked = await act(`/console/merchants/${merchant.mid}/tokens/${fresh!.id}/revoke`, { why: 'leaked again' });
    expect(revoked.status).toBe(303);
    expect((await db.merchantToken.findUniqueOrThrow({ where: { id: fresh!.id } })).revokedAt).not.toBeNull();
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    expect(audit.map((a) => a.action)).toEqual([
      'token.revoke',
      'approval.approve',
      'token.revoke',
      'token.rotate',
      'approval.request',
    ]);
    const everything = JSON.stringify(
      [audit, await db.approvalRequest.findMany({ where: { merchantId: merchant.merchant.id } })],
      (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v),
    );
    expect(everything).not.toContain(made.token);
    expect(everything).not.toContain(merchant.token);
  });

  it('when pages are asked for with bad or unknown keys, then they say so with the right status', async () => {
    const merchant = await makeMerchant(db);
    expect((await page('/console/payouts/NOSUCHACK00000')).status).toBe(404);
    expect((await page('/console/payouts/<script>')).status).toBe(404);
    expect((await page('/console/merchants/NOSUCHMID999')).status).toBe(404);
    expect((await page('/console?q=a%20b%20c')).status).toBe(400);
    const missing = await page('/console?q=' + encodeURIComponent(`${merchant.mid} 999`));
    expect(missing.status).toBe(404);
    expect((await page(`/console/merchants/${merchant.mid}/payouts?from=2026-13-01`)).status).toBe(400);
    expect((await page(`/console/merchants/${merchant.mid}/statement.csv?from=2026-11-20&to=2026-11-01`)).status).toBe(
      400,
    );
    expect((await page('/console/no-such-page')).status).toBe(404);
    const xss = await page('/console?q=' + encodeURIComponent('<img src=x onerror=alert(1)>'));
    expect(xss.html).not.toContain('<img src=x');
    expect(xss.html).toContain('&lt;img src=x onerror=alert(1)>');
  });
});
