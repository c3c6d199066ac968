import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimWebhookAttempt,
  findWebhookDeliveries,
  finishWebhookAttempt,
  listOperatorActions,
  type PrismaClient,
} from '@payout/db';
import { eventually } from '../support/eventually.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { consoleSession } from '../support/console.js';
import { useStack } from '../support/stack.js';
import { payoutAtTheRail, registerEndpoint, settle } from '../webhooks/webhook-fixtures.js';

// A disabled webhook endpoint is visible in the console (docs/webhooks.md, "An endpoint that keeps failing
// is disabled"): on the merchant's page, in the list of failed deliveries, and on the payout's page.

const stack = useStack();
let db: PrismaClient;
let cookie: string;
let operator: string;

beforeAll(async () => {
  db = testPrisma();
  cookie = await consoleSession(stack.current.api.adminUrl, 'tara', 'support');
  operator = await consoleSession(stack.current.api.adminUrl, 'uma', 'operator');
});
afterAll(() => db.$disconnect());

async function html(path: string): Promise<string> {
  const res = await fetch(`${stack.current.api.adminUrl}${path}`, { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

describe('console: disabled webhook endpoints', () => {
  it('when an endpoint was disabled at the end of a retry window, then the merchant page, the failed list and the payout page say so', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, 'https://acme.example/hooks');
    const payout = await payoutAtTheRail(db, merchant);
    const { webhookDeliveryId } = await settle(db, payout, 'FAILED');
    const claim = await claimWebhookAttempt(db, webhookDeliveryId!, 1, new Date(Date.now() + 60_000));
    expect(claim).not.toBeNull();
    const reason = 'all 1 attempts of delivery failed over its whole retry window; the last answered 503';
    expect(
      await finishWebhookAttempt(
        db,
        webhookDeliveryId!,
        1,
        { durationMs: 12, statusCode: 503, error: null },
        { status: 'HELD', disabledReason: reason },
      ),
    ).toBe(true);

    const merchantPage = await html(`/console/merchants/${merchant.mid}`);
    expect(merchantPage).toContain('Disabled');
    expect(merchantPage).toContain(reason);
    expect(merchantPage).toContain(`pnpm cli webhook enable --mid ${merchant.mid}`);

    const failed = await html('/console/lists/failed-webhooks');
    expect(failed).toContain(payout.ackNo);
    expect(failed).toContain('held: endpoint disabled');

    const payoutPage = await html(`/console/payouts/${payout.ackNo}`);
    expect(payoutPage).toContain("kept while the merchant's endpoint is disabled");

    // An operator enables it from the console: the held delivery is pending again, the action audited.
    const path = `${stack.current.api.adminUrl}/console/merchants/${merchant.mid}/webhook/enable`;
    const form = await fetch(path, { headers: { Cookie: operator } });
    expect(form.status).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const enabled = await fetch(path, {
      method: 'POST',
      headers: { Cookie: operator, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, why: 'merchant renewed its certificate' }).toString(),
      redirect: 'manual',
    });
    expect(enabled.status).toBe(303);
    const endpoint = await db.webhookEndpoint.findUniqueOrThrow({ where: { merchantId: merchant.merchant.id } });
    expect(endpoint.disabledAt).toBeNull();
    // The worker of the stack makes its next attempt (acme.example answers nothing, so it stays pending).
    const [resumed] = await eventually(
      () => findWebhookDeliveries(db, payout.id),
      (ds) => (ds[0]?.attempts.length ?? 0) >= 2,
      { what: 'the resumed delivery attempted again' },
    );
    expect(resumed!.status).toBe('PENDING');
    expect(resumed!.attempts[1]!.attempt).toBe(2);
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 5 });
    expect(audit.map((a) => [a.action, a.actor, a.reason])).toEqual([
      ['webhook.enable', 'console:uma', 'merchant renewed its certificate'],
    ]);
    // A support user cannot.
    expect((await fetch(path, { headers: { Cookie: cookie } })).status).toBe(403);
  });
});
