import { afterAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_SECRET_FOR_TESTS } from '../support/secrets.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { adminOf, call, impsBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { useStack } from '../support/stack.js';

const prisma = testPrisma();
const stack = useStack();
afterAll(() => prisma.$disconnect());

const admin = { Authorization: `Bearer ${DEVELOPMENT_SECRET_FOR_TESTS}` };

describe('support console', () => {
  it('when the operator surfaces are asked for on the merchant port, then it answers the JSON 404 and the admin listener serves them', async () => {
    const { api } = stack.current;
    const basic = `Basic ${Buffer.from(`ops:${DEVELOPMENT_SECRET_FOR_TESTS}`).toString('base64')}`;
    for (const path of [
      '/metrics',
      '/admin/queues',
      '/admin/payouts?mid=M1&TransactionID=1',
      '/console',
      '/console/login',
    ]) {
      const merchantPort = await call(api, path, { headers: { Authorization: basic } });
      expect(merchantPort.status, path).toBe(404);
      expect(merchantPort.json, path).toEqual({
        error: true,
        status_code: 404,
        status: 'NOT FOUND',
        message: expect.any(String) as string,
      });
    }
    // /metrics has a listener of its own, so Prometheus is let through to that port alone; the admin
    // listener answers it as nothing.
    const metrics = await fetch(`${api.metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
    expect((await fetch(`${api.adminUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${api.metricsUrl}/console/login`)).status).toBe(404);
    expect((await fetch(`${api.metricsUrl}/admin/queues`, { headers: { Authorization: basic } })).status).toBe(404);
    expect((await fetch(`${api.adminUrl}/admin/queues`, { headers: { Authorization: basic } })).status).toBe(200);
    expect((await fetch(`${api.adminUrl}/console/login`)).status).toBe(200);
    expect(api.adminPort).not.toBe(api.port);
  });

  it('when asked without the admin token (or with a wrong one), then it refuses with 401', async () => {
    const none = await call(adminOf(stack.current.api), '/admin/payouts?mid=M1&TransactionID=1');
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ error: true, status_code: 401, status: 'UNAUTHORIZED' });
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await call(adminOf(stack.current.api), '/admin/payouts?mid=M1&TransactionID=1', {
      headers: { Authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
  });

  it("when support looks a payout up, then it gets the payout's whole story", async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '10.22' });
    await call(stack.current.api, '/api/impspayout', { merchant, body });
    await eventually(
      () => call(stack.current.api, `/api/check_payout_status?TransactionID=${body.TransactionID}`, { merchant }),
      (r) => r.json.status === 'Success',
      { what: 'settlement' },
    );

    const story = await call(
      adminOf(stack.current.api),
      `/admin/payouts?mid=${merchant.mid}&TransactionID=${body.TransactionID}`,
      {
        headers: admin,
      },
    );
    expect(story.status).toBe(200);
    const json = story.json as {
      payout: { state: string; amount: string; ackNo: string };
      events: { to: string; actor: string; railAnswer: unknown }[];
      ledger: { kind: string; account: string }[];
      jobs: { id: string; state: string }[];
    };
    expect(json.payout).toMatchObject({ state: 'SUCCESS', amount: '10.22' });
    expect(json.events[0]!.to).toBe('ACCEPTED');
    expect(json.events.some((e) => e.to === 'AWAITING_RAIL' && e.railAnswer !== null)).toBe(true);
    expect(json.events.at(-1)!.to).toBe('SUCCESS');
    expect(json.ledger.map((l) => `${l.kind}:${l.account}`).sort()).toEqual(
      [
        'PAYOUT_RESERVE:MAIN_WALLET',
        'PAYOUT_RESERVE:RESERVED',
        'PAYOUT_SETTLE:PAID_OUT',
        'PAYOUT_SETTLE:RESERVED',
      ].sort(),
    );
    // Its jobs ran and were removed (a finished job is removed at once: packages/queue/src/job-catalog.ts).
    expect(json.jobs).toEqual([]);
  });

  it('when support looks up a payout the bank keeps pending, then its queued inquiry job shows', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '10.55' });
    await call(stack.current.api, '/api/impspayout', { merchant, body });
    const story = await eventually(
      () =>
        call(adminOf(stack.current.api), `/admin/payouts?mid=${merchant.mid}&TransactionID=${body.TransactionID}`, {
          headers: admin,
        }),
      (r) => (r.json.jobs as { id: string }[] | undefined)?.some((j) => j.id.startsWith('inquire-')) === true,
      { what: 'a queued inquiry in the console' },
    );
    const id = (story.json.payout as { id: string }).id;
    expect(story.json.jobs).toContainEqual(
      expect.objectContaining({ id: expect.stringMatching(new RegExp(`^inquire-${id}-[0-9]+$`)) }),
    );
  });

  it('when a payout does not exist, then the console says so', async () => {
    const merchant = await makeMerchant(prisma);
    const missing = await call(adminOf(stack.current.api), `/admin/payouts?mid=${merchant.mid}&TransactionID=424242`, {
      headers: admin,
    });
    expect(missing.status).toBe(404);
    const bad = await call(adminOf(stack.current.api), `/admin/payouts?mid=bad%20mid&TransactionID=x`, {
      headers: admin,
    });
    expect(bad.status).toBe(422);
  });

  it('when the queue dashboard is opened in a browser with the admin password, then it is served', async () => {
    const basic = `Basic ${Buffer.from(`support:${DEVELOPMENT_SECRET_FOR_TESTS}`).toString('base64')}`;
    const page = await fetch(`${stack.current.api.adminUrl}/admin/queues`, { headers: { Authorization: basic } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<html/i);
    const queues = await fetch(`${stack.current.api.adminUrl}/admin/queues/api/queues`, {
      headers: { Authorization: basic },
    });
    expect(((await queues.json()) as { queues: { name: string }[] }).queues.map((q) => q.name)).toContain('payouts');
    expect((await fetch(`${stack.current.api.adminUrl}/admin/queues`)).status).toBe(401);
  });
});
