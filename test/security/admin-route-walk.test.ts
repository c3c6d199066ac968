import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp, permissionOf } from '@payout/api';
import { transitionPayout, type PrismaClient } from '@payout/db';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { useStack } from '../support/stack.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// Authorization where the action is (docs/operations.md, "Roles"): every POST route of the admin listener is
// found by walking the app's own routers — not from a list written here — and each must carry the one
// authorization check. Then a support user, holding a valid session and CSRF token, posts to every one of
// them and to every other spelling of its path: each is refused (403 or 404), nothing changes, and each
// refusal is in the audit log. An operator is walked the same way over the approvers' routes.

const stack = useStack();
let db: PrismaClient;
let support: ConsolePerson;
let operator: ConsolePerson;
let merchant: TestMerchant;
let ackNo: string;
let tokenId: number;
let approvalId: string;

/**
 * Signing in (the console's form, the CLI's sign-in) and a person's own enrollment (opening one, then, with its
 * secret, its second factor and password) are the doors a stranger may post to.
 */
const PUBLIC_POSTS = new Set([
  '/console/login',
  '/console/logout',
  '/console/enroll',
  '/console/enroll/finish',
  '/admin/sign-in',
  '/admin/enrollments',
  '/admin/enrollments/standing',
  '/admin/enrollments/second-factor',
  '/admin/enrollments/finish',
]);

/**
 * What every signed-in person may post, support too: their own keys and their own sign-out
 * (docs/operations.md, "Security model"). Each acts on its poster's own credentials only
 * (test/console/personal-keys.test.ts).
 */
const EVERY_PERSON_POSTS = ['/admin/sign-out', '/console/keys', '/console/keys/:prefix/revoke'];

interface Layer {
  route?: { path: string | RegExp; stack: { method?: string; handle: unknown }[] };
  handle: { stack?: Layer[] };
}

/** Every route of the app with its methods and its handlers for each, through nested routers. */
function routesOf(
  app: ReturnType<typeof createAdminApp>,
): { path: string | RegExp; method: string; handlers: unknown[] }[] {
  const found: { path: string | RegExp; method: string; handlers: unknown[] }[] = [];
  const walk = (layers: Layer[]) => {
    for (const layer of layers) {
      if (layer.route) {
        const handlers = layer.route.stack.filter((l) => l.method);
        for (const method of new Set(handlers.map((l) => l.method!))) {
          found.push({
            path: layer.route.path,
            method,
            handlers: handlers.filter((l) => l.method === method).map((l) => l.handle),
          });
        }
      } else if (Array.isArray(layer.handle.stack)) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

/** A route's path with its parameters filled in with real rows, so a refusal is not a 404 for a missing row. */
function filled(path: string): string {
  return path
    .replace(':ackNo', ackNo)
    .replace(':mid', merchant.mid)
    .replace(/tokens\/:id/, `tokens/${tokenId}`)
    .replace(/approvals\/:id/, `approvals/${approvalId}`)
    .replace(':username', operator.username)
    .replace(':bank', 'primary');
}

/** The other spellings of a path an attacker tries: each must reach nothing. */
function variants(path: string): string[] {
  const segments = path.split('/');
  const last = segments[segments.length - 1]!;
  const otherCase = [...segments.slice(0, -1), last.charAt(0).toUpperCase() + last.slice(1)].join('/');
  return [
    path,
    `${path}/`,
    otherCase,
    path.replace(/^\/console/, '/Console').replace(/^\/admin/, '/Admin'),
    path.replace(/^(\/[a-z]+)\//, '$1//'),
    `${segments.slice(0, -1).join('/')}%2F${last}`,
    path.replace(/^(\/[a-z]+)\//, '$1%2F'),
  ];
}

/** Everything a refused post could have changed, in one comparable value. */
async function worldFingerprint(): Promise<unknown> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT (SELECT count(*) FROM ledger_entries) AS ledger,
           (SELECT coalesce(sum(available_paise), 0) FROM wallets) AS available,
           (SELECT count(*) FROM merchant_tokens WHERE revoked_at IS NULL) AS tokens,
           (SELECT count(*) FROM approval_requests) AS requests,
           (SELECT string_agg(state::text, ',' ORDER BY id) FROM approval_requests) AS request_states,
           (SELECT count(*) FROM payouts) AS payouts,
           (SELECT string_agg(state::text, ',' ORDER BY id) FROM payouts) AS payout_states,
           (SELECT count(*) FROM webhook_deliveries) AS deliveries,
           (SELECT count(*) FROM bulk_batches) AS batches,
           (SELECT string_agg(username || ':' || role || ':' || (disabled_at IS NULL), ',' ORDER BY id)
              FROM console_users) AS people,
           (SELECT count(*) FROM personal_credentials WHERE revoked_at IS NULL) AS credentials,
           (SELECT string_agg(bank || ':' || state, ',' ORDER BY bank) FROM bank_controls) AS bank_holds,
           (SELECT string_agg(coalesce(pinned_bank, '-') || ':' || downtime_hold_seconds, ',' ORDER BY id)
              FROM merchants) AS routing,
           (SELECT count(*) FROM operator_actions WHERE action <> 'access.refused') AS actions`;
  return JSON.parse(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))) as unknown;
}

const refusalsOf = (person: ConsolePerson) =>
  db.operatorAction.count({ where: { action: 'access.refused', actor: `console:${person.username}` } });

beforeAll(async () => {
  db = testPrisma();
  support = await signedInPerson(stack.current.api.adminUrl, 'support');
  operator = await signedInPerson(stack.current.api.adminUrl, 'operator');
  merchant = await makeMerchant(db, { balance: '1000.00' });
  const payout = await payoutAtTheRail(db, merchant, { mode: 'IMPS', amountPaise: 10100n });
  for (const state of ['AWAITING_RAIL', 'MANUAL_REVIEW'] as const) {
    await transitionPayout(db, payout.id, state, { nextCheckAt: null }, { reason: 'test', actor: 'test' });
  }
  ackNo = payout.ackNo;
  tokenId = (await db.merchantToken.findFirstOrThrow({ where: { merchantId: merchant.merchant.id } })).id;
  const asked = await operator.post(`/console/merchants/${merchant.mid}/credit`, {
    amount: '4000.00',
    reference: 'NEFT-WALK',
    why: 'an open request for the approvers',
  });
  approvalId = asked.location!.split('/').pop()!;
});
afterAll(() => db.$disconnect());

describe('the admin listener’s routes', () => {
  it('when its routes are walked, then every POST route but sign-in carries the authorization check', () => {
    const posts = routesOf(createAdminApp(stack.current.api.adminDeps)).filter((r) => r.method === 'post');
    expect(posts.length).toBeGreaterThan(12);
    // The check runs before anything else the route does (a bulk file's body is read only once it passed).
    const unchecked = posts.filter(
      (r) => !PUBLIC_POSTS.has(String(r.path)) && permissionOf(r.handlers.find((h) => permissionOf(h))) === undefined,
    );
    expect(unchecked.map((r) => String(r.path))).toEqual([]);
    expect(posts.filter((r) => PUBLIC_POSTS.has(String(r.path)))).toHaveLength(PUBLIC_POSTS.size);
    const everyPerson = posts.filter((r) => permissionOf(r.handlers.find((h) => permissionOf(h))) === 'read');
    expect(everyPerson.map((r) => String(r.path)).sort()).toEqual([...EVERY_PERSON_POSTS].sort());
  });

  it('when a support user posts to every action and every spelling of its path, then each is refused, nothing changes, and each refusal is audited', async () => {
    const paths = routesOf(createAdminApp(stack.current.api.adminDeps))
      .filter((r) => r.method === 'post' && typeof r.path === 'string' && !PUBLIC_POSTS.has(r.path))
      .filter((r) => !EVERY_PERSON_POSTS.includes(r.path as string))
      .map((r) => filled(r.path as string));
    expect(paths).toContain(`/admin/users/${operator.username}/role`);
    expect(paths).toContain(`/console/merchants/${merchant.mid}/credit`);
    const before = await worldFingerprint();
    for (const path of paths) {
      for (const tried of variants(path)) {
        const refused = await refusalsOf(support);
        const res = await fetch(`${stack.current.api.adminUrl}${tried}`, {
          method: 'POST',
          headers: {
            Cookie: support.cookie,
            'X-CSRF-Token': support.csrf,
            'Content-Type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({
            _csrf: support.csrf,
            amount: '4000.00',
            reference: `WALK-${tried}`,
            why: 'trying the operator form by hand',
            note: 'me',
            outcome: 'success',
            override: 'yes',
            csv: 'Mode,TransactionID,Amount,Name',
          }).toString(),
          redirect: 'manual',
        });
        expect({ tried, status: [403, 404].includes(res.status) }).toEqual({ tried, status: true });
        expect({ tried, audited: (await refusalsOf(support)) - refused }).toEqual({ tried, audited: 1 });
      }
    }
    expect(await worldFingerprint()).toEqual(before);
  });

  it('when an operator posts to the approvers’ routes, then each is refused, nothing changes, and it is audited', async () => {
    const before = await worldFingerprint();
    const refused = await refusalsOf(operator);
    for (const decision of ['approve', 'reject']) {
      const res = await operator.post(`/console/approvals/${approvalId}/${decision}`, { note: 'my own' });
      expect(res.status).toBe(403);
    }
    const disable = await fetch(`${stack.current.api.adminUrl}/admin/users/${support.username}/disable`, {
      method: 'POST',
      headers: { Cookie: operator.cookie, 'X-CSRF-Token': operator.csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ why: 'an operator may not' }),
    });
    expect(disable.status).toBe(403);
    expect((await refusalsOf(operator)) - refused).toBe(3);
    expect(await worldFingerprint()).toEqual(before);
  });

  it('when a support user opens an action’s confirmation page, then it is refused too', async () => {
    for (const path of [
      `/console/merchants/${merchant.mid}/credit`,
      `/console/merchants/${merchant.mid}/tokens/rotate`,
      `/console/merchants/${merchant.mid}/bulk`,
      `/console/payouts/${ackNo}/resolve`,
    ]) {
      expect((await support.page(path)).status).toBe(403);
    }
  });
});
