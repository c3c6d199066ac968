import { afterAll, describe, expect, it } from 'vitest';
import { DEVELOPMENT_SECRET_FOR_TESTS } from '../support/secrets.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { useStack } from '../support/stack.js';

const prisma = testPrisma();
const stack = useStack();
afterAll(() => prisma.$disconnect());

const admin = { Authorization: `Bearer ${DEVELOPMENT_SECRET_FOR_TESTS}` };

describe('support console', () => {
  it('when asked without the admin token (or with a wrong one), then it refuses with 401', async () => {
    const none = await call(stack.current.api, '/admin/payouts?mid=M1&TransactionID=1');
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ error: true, status_code: 401, status: 'UNAUTHORIZED' });
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await call(stack.current.api, '/admin/payouts?mid=M1&TransactionID=1', {
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
      stack.current.api,
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
    expect(json.jobs.map((j) => j.id)).toContain(`execute-${(story.json.payout as { id: string }).id}`);
  });

  it('when a payout does not exist, then the console says so', async () => {
    const merchant = await makeMerchant(prisma);
    const missing = await call(stack.current.api, `/admin/payouts?mid=${merchant.mid}&TransactionID=424242`, {
      headers: admin,
    });
    expect(missing.status).toBe(404);
    const bad = await call(stack.current.api, `/admin/payouts?mid=bad%20mid&TransactionID=x`, { headers: admin });
    expect(bad.status).toBe(422);
  });

  it('when the queue dashboard is opened in a browser with the admin password, then it is served', async () => {
    const basic = `Basic ${Buffer.from(`support:${DEVELOPMENT_SECRET_FOR_TESTS}`).toString('base64')}`;
    const page = await fetch(`${stack.current.api.url}/admin/queues`, { headers: { Authorization: basic } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<html/i);
    const queues = await fetch(`${stack.current.api.url}/admin/queues/api/queues`, {
      headers: { Authorization: basic },
    });
    expect(((await queues.json()) as { queues: { name: string }[] }).queues.map((q) => q.name)).toContain('payouts');
    expect((await fetch(`${stack.current.api.url}/admin/queues`)).status).toBe(401);
  });
});
