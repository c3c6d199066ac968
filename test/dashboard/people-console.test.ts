import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import {
  addDashboardUser,
  dashboardSessionOf,
  finishDashboardEnrollment,
  openDashboardEnrollment,
} from '../support/dashboard-people.js';
import { makeMerchant } from '../support/factories.js';

// A merchant's dashboard people as staff see them on the console's merchant page (docs/dashboard.md, "The
// team"): read-only, with a disable for an incident (one operator, audited twice), and the owner's enrollment
// asked for by one person and approved by another.

const api = useApi();
const db = testPrisma();
let operator: ConsolePerson;
let approver: ConsolePerson;
let support: ConsolePerson;

beforeAll(async () => {
  operator = await signedInPerson(api.current.adminUrl, 'operator');
  approver = await signedInPerson(api.current.adminUrl, 'approver');
  support = await signedInPerson(api.current.adminUrl, 'support');
});
afterAll(() => db.$disconnect());

describe('a merchant’s dashboard team on the console', () => {
  it('when staff open a merchant, then its team is listed, and only someone who may act can disable a person', async () => {
    const { merchant, mid } = await makeMerchant(db);
    const admin = await addDashboardUser(db, merchant.id, 'ADMIN');
    const page = await support.page(`/console/merchants/${mid}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(admin.email);
    const refused = await support.post(`/console/merchants/${mid}/team/${admin.id}/disable`, { why: 'not mine to do' });
    expect(refused.status).toBe(403);
    expect((await db.merchantUser.findUniqueOrThrow({ where: { id: admin.id } })).disabledAt).toBeNull();
  });

  it('when an operator disables a person for an incident, then they are signed out and both audits name the operator', async () => {
    const { merchant, mid } = await makeMerchant(db);
    const admin = await addDashboardUser(db, merchant.id, 'ADMIN');
    const session = await dashboardSessionOf(db, admin);
    const form = await operator.page(`/console/merchants/${mid}/team/${admin.id}/disable`);
    expect(form.status).toBe(200);
    const done = await operator.post(`/console/merchants/${mid}/team/${admin.id}/disable`, {
      why: 'their account is used from an unknown place',
    });
    expect(done.status).toBe(303);
    const team = await fetch(`${api.current.url}/dashboard/team`, {
      headers: { Cookie: session.cookie },
      redirect: 'manual',
    });
    expect(team.status).toBe(303);
    const actor = `console:${operator.username}`;
    expect(
      await db.operatorAction.count({ where: { action: 'merchant-user.disable', actor, merchantId: merchant.id } }),
    ).toBe(1);
    expect(
      await db.merchantAuditEvent.count({ where: { action: 'team.disable', actor, merchantId: merchant.id } }),
    ).toBe(1);
  });

  it('when an operator asks for the owner’s enrollment with the fingerprint and an approver approves, then the owner finishes it themselves', async () => {
    const { merchant, mid } = await makeMerchant(db);
    const email = `console-owner-${merchant.id}@owned.example`;
    const device = await openDashboardEnrollment(api.current.url, email);
    const asked = await operator.post(`/console/merchants/${mid}/owner-enrollment`, {
      email,
      fingerprint: device.fingerprint,
      why: 'the owner read me the fingerprint on a call',
    });
    expect(asked.status).toBe(303);
    const requestPath = asked.location!;
    expect(requestPath).toMatch(/^\/console\/approvals\/\d+$/);
    // The owner is made on approval, not before.
    expect(await db.merchantUser.count({ where: { email } })).toBe(0);
    const approved = await approver.post(`${requestPath}/approve`);
    expect(approved.status).toBe(303);
    const owner = await db.merchantUser.findUniqueOrThrow({ where: { email } });
    expect(owner).toMatchObject({ merchantId: merchant.id, role: 'OWNER', passwordHash: null });
    const finished = await finishDashboardEnrollment(api.current.url, device.cookie, 'console-owner-password');
    expect(finished.response.status).toBe(200);
  });
});
