import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, dashboardPermissionOf, PUBLIC_DASHBOARD_ROUTES } from '@payout/api';
import { MERCHANT_USER_ROLES, merchantMay, type MerchantPermission, type MerchantUserRole } from '@payout/domain';
import { adminOf, useApi } from '../support/api.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { addDashboardUser, dashboardSessionOf, type DashboardPerson } from '../support/dashboard-people.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';

// Authorization on every route of the merchant dashboard (docs/dashboard.md, "Roles" and "Sessions"). The
// routes are found by walking the merchant API's own routers — not from a list written here — so a page or
// action added later is walked too. Each must be wrapped in permit() (dashboard-gates.tsx) or be one of the
// public sign-in and enrollment routes. Then, for each: signed out it is refused, without the session's CSRF
// token a post is refused, every role without its permission is refused, a person of another merchant
// changes nothing of this one, and nothing changes for any refusal. The dashboard's and the console's
// sessions open nothing of each other's.

const api = useApi();
const db = testPrisma();
afterAll(() => db.$disconnect());

interface Layer {
  route?: { path: string | RegExp; stack: { method?: string; handle: unknown }[] };
  handle: { stack?: Layer[] };
}

interface Route {
  path: string;
  method: 'get' | 'post';
  permission: MerchantPermission | undefined;
}

/** Every route of the merchant API under /dashboard, with the permission its permit() wrapper checks. */
function dashboardRoutesOf(app: ReturnType<typeof createApp>): Route[] {
  const found: Route[] = [];
  const walk = (layers: Layer[]) => {
    for (const layer of layers) {
      if (layer.route) {
        const path = String(layer.route.path);
        if (!path.startsWith('/dashboard')) continue;
        const handlers = layer.route.stack.filter((l) => l.method);
        for (const method of new Set(handlers.map((l) => l.method!))) {
          const permitted = handlers.filter((l) => l.method === method).find((l) => dashboardPermissionOf(l.handle));
          found.push({
            path,
            method: method as Route['method'],
            permission: permitted && dashboardPermissionOf(permitted.handle),
          });
        }
      } else if (Array.isArray(layer.handle.stack)) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

const isPublic = (route: Route) => PUBLIC_DASHBOARD_ROUTES.includes(`${route.method.toUpperCase()} ${route.path}`);

let routes: Route[];
let ours: TestMerchant;
let theirs: TestMerchant;
const people = {} as Record<MerchantUserRole, DashboardPerson & { cookie: string; csrfToken: string }>;
let stranger: DashboardPerson & { cookie: string; csrfToken: string };
let staff: ConsolePerson;

/** A route's path with its parameters filled with this merchant's rows, so a refusal is not for a missing row. */
function filled(path: string): string {
  return path.replace(/:[A-Za-z]+/g, (name) => (name === ':userId' ? String(people.VIEWER.id) : '1'));
}

/** The fields a form of any dashboard action might read, aimed at this merchant's people. */
function formFor(csrfToken: string | undefined): string {
  return new URLSearchParams({
    ...(csrfToken !== undefined && { _csrf: csrfToken }),
    userId: String(people.VIEWER.id),
    email: `walk-${ours.merchant.id}@walk.example`,
    role: 'ADMIN',
    fingerprint: 'AAAA-AAAA',
    amount: '1.00',
  }).toString();
}

/** Everything of this merchant a refused request could have changed, in one comparable value. */
async function merchantWorld(merchantId: number): Promise<unknown> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT (SELECT string_agg(email || ':' || role || ':' || (disabled_at IS NULL), ',' ORDER BY id)
              FROM merchant_users WHERE merchant_id = ${merchantId}) AS people,
           (SELECT count(*) FROM merchant_user_sessions s JOIN merchant_users u ON u.id = s.user_id
             WHERE u.merchant_id = ${merchantId}) AS sessions,
           (SELECT count(*) FROM merchant_audit_events WHERE merchant_id = ${merchantId}) AS audit,
           (SELECT count(*) FROM merchant_tokens WHERE merchant_id = ${merchantId} AND revoked_at IS NULL) AS tokens,
           (SELECT count(*) FROM payouts WHERE merchant_id = ${merchantId}) AS payouts,
           (SELECT count(*) FROM ledger_entries) AS ledger`;
  return JSON.parse(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))) as unknown;
}

function send(route: Route, cookie: string, csrfToken?: string): Promise<Response> {
  return fetch(`${api.current.url}${filled(route.path)}`, {
    method: route.method.toUpperCase(),
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    ...(route.method === 'post' && { body: formFor(csrfToken) }),
    redirect: 'manual',
  });
}

beforeAll(async () => {
  routes = dashboardRoutesOf(createApp(api.current.deps));
  ours = await makeMerchant(db, { balance: '100.00' });
  theirs = await makeMerchant(db, { balance: '100.00' });
  for (const role of MERCHANT_USER_ROLES) {
    const person = await addDashboardUser(db, ours.merchant.id, role);
    people[role] = { ...person, ...(await dashboardSessionOf(db, person)) };
  }
  const other = await addDashboardUser(db, theirs.merchant.id, 'OWNER');
  stranger = { ...other, ...(await dashboardSessionOf(db, other)) };
  staff = await signedInPerson(api.current.adminUrl, 'operator');
});

describe('the dashboard’s routes', () => {
  it('when its routes are walked, then each is wrapped in permit() or is a public sign-in or enrollment route', () => {
    expect(routes.length).toBeGreaterThanOrEqual(PUBLIC_DASHBOARD_ROUTES.length + 5);
    const unchecked = routes.filter((r) => !isPublic(r) && r.permission === undefined);
    expect(unchecked.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(routes.filter(isPublic)).toHaveLength(PUBLIC_DASHBOARD_ROUTES.length);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toContain('post /dashboard/team/add');
  });

  it('when a signed-out browser asks for any page or posts to any action, then it is sent to sign in or refused, and nothing changes', async () => {
    const before = await merchantWorld(ours.merchant.id);
    for (const route of routes.filter((r) => !isPublic(r))) {
      const res = await send(route, '');
      const seen = {
        route: `${route.method} ${route.path}`,
        status: res.status,
        location: res.headers.get('location'),
      };
      expect(seen).toEqual(
        route.method === 'get'
          ? { ...seen, status: 303, location: '/dashboard/login' }
          : { ...seen, status: 401, location: null },
      );
    }
    expect(await merchantWorld(ours.merchant.id)).toEqual(before);
  });

  it('when a signed-in person posts without the session’s CSRF token, then every action is refused and nothing changes', async () => {
    const before = await merchantWorld(ours.merchant.id);
    for (const route of routes.filter((r) => !isPublic(r) && r.method === 'post')) {
      for (const token of [undefined, 'not-the-token']) {
        const res = await send(route, people.OWNER.cookie, token);
        expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 403 });
      }
    }
    expect(await merchantWorld(ours.merchant.id)).toEqual(before);
  });

  it('when each role asks for a route whose permission it lacks, then it is refused and nothing changes', async () => {
    const before = await merchantWorld(ours.merchant.id);
    let refusals = 0;
    for (const route of routes.filter((r) => !isPublic(r))) {
      for (const role of MERCHANT_USER_ROLES) {
        if (merchantMay(role, route.permission!)) continue;
        const res = await send(route, people[role].cookie, people[role].csrfToken);
        expect({ route: `${route.method} ${route.path}`, role, status: res.status }).toEqual({
          route: `${route.method} ${route.path}`,
          role,
          status: 403,
        });
        refusals++;
      }
    }
    expect(refusals).toBeGreaterThan(0);
    expect(await merchantWorld(ours.merchant.id)).toEqual(before);
  });

  it('when the owner of another merchant uses every route aimed at this merchant’s people, then nothing of this merchant changes or shows', async () => {
    const before = await merchantWorld(ours.merchant.id);
    for (const route of routes.filter((r) => !isPublic(r) && r.path !== '/dashboard/logout')) {
      const res = await send(route, stranger.cookie, stranger.csrfToken);
      const html = await res.text();
      for (const secret of [ours.mid, people.VIEWER.email, people.OWNER.email]) {
        expect({ route: route.path, shows: html.includes(secret) }).toEqual({ route: route.path, shows: false });
      }
    }
    expect(await merchantWorld(ours.merchant.id)).toEqual(before);
  });

  it('when a dashboard session is shown to the console and the admin API, or a console session to the dashboard, then neither opens anything', async () => {
    const admin = adminOf(api.current);
    for (const path of ['/console', '/console/search', '/console/keys']) {
      const res = await fetch(`${admin.url}${path}`, { headers: { Cookie: people.OWNER.cookie }, redirect: 'manual' });
      expect({ path, status: res.status, location: res.headers.get('location') }).toEqual({
        path,
        status: 303,
        location: '/console/login',
      });
    }
    const json = await fetch(`${admin.url}/admin/whoami`, { headers: { Cookie: people.OWNER.cookie } });
    expect(json.status).toBe(401);
    // The dashboard is on the merchant API's listener, the console on the admin listener: the console's cookie
    // is not the dashboard's, whichever listener it is sent to.
    for (const route of routes.filter((r) => !isPublic(r) && r.method === 'get')) {
      const res = await send(route, staff.cookie);
      expect({ route: route.path, status: res.status }).toEqual({ route: route.path, status: 303 });
    }
    const consoleOnMerchantListener = await fetch(`${api.current.url}/console`, { headers: { Cookie: staff.cookie } });
    expect(consoleOnMerchantListener.status).toBe(404);
  });
});
