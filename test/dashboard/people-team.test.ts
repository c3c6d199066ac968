import { afterAll, describe, expect, it } from 'vitest';
import { recordMerchantAudit } from '@payout/db';
import { useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import {
  addDashboardUser,
  dashboardSessionOf,
  finishDashboardEnrollment,
  openDashboardEnrollment,
  postDashboardForm,
} from '../support/dashboard-people.js';
import { makeMerchant } from '../support/factories.js';

// The team page and the audit (docs/dashboard.md, "The team"): a person's own enrollment bound by an admin,
// role changes and disabling that sign the person out, the owner and oneself out of reach, and every change
// in the merchant's audit with who made it.

const api = useApi();
const db = testPrisma();
afterAll(() => db.$disconnect());

async function team() {
  const { merchant } = await makeMerchant(db);
  const owner = await addDashboardUser(db, merchant.id, 'OWNER');
  const admin = await addDashboardUser(db, merchant.id, 'ADMIN');
  const viewer = await addDashboardUser(db, merchant.id, 'VIEWER');
  return { merchantId: merchant.id, owner, admin, viewer, adminSession: await dashboardSessionOf(db, admin) };
}

function page(path: string, cookie: string): Promise<Response> {
  return fetch(`${api.current.url}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
}

function post(path: string, session: { cookie: string; csrfToken: string }, fields: Record<string, string>) {
  return postDashboardForm(`${api.current.url}${path}`, session.cookie, { _csrf: session.csrfToken, ...fields });
}

const openEnrollment = (email: string) => openDashboardEnrollment(api.current.url, email);

async function auditActions(merchantId: number) {
  const rows = await db.merchantAuditEvent.findMany({ where: { merchantId }, orderBy: { id: 'asc' } });
  return rows.map((row) => ({ actor: row.actor, action: row.action }));
}

describe('the team page', () => {
  it('when an admin adds a person with the fingerprint they read, then only that person finishes their enrollment, with TOTP and recovery codes', async () => {
    const { merchantId, admin, adminSession } = await team();
    const email = `new-${merchantId}@person.example`;
    const newcomer = await openEnrollment(email);
    const stranger = await openEnrollment(email);

    const added = await post('/dashboard/team/add', adminSession, {
      email,
      role: 'FINANCE',
      fingerprint: newcomer.fingerprint.toLowerCase().replace('-', ''),
    });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe('/dashboard/team?done=added');

    // The other enrollment of the same e-mail is still only waiting: the account is bound to one.
    expect(await (await page('/dashboard/enroll', stranger.cookie)).text()).toContain(stranger.fingerprint);
    const { response: finished, seed } = await finishDashboardEnrollment(
      api.current.url,
      newcomer.cookie,
      'a-long-password-of-mine',
    );
    expect(finished.status).toBe(200);
    const enrolledPage = await finished.text();
    expect(enrolledPage).toContain('You are enrolled');
    expect(enrolledPage.match(/<li><code>/g)).toHaveLength(10);

    const stored = await db.merchantUser.findUniqueOrThrow({ where: { email } });
    expect(stored).toMatchObject({ merchantId, role: 'FINANCE', enrollmentDigest: null });
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(stored.totpSealed).not.toContain(seed);
    expect(await auditActions(merchantId)).toEqual([
      { actor: `merchant-user:${admin.id} ${admin.email}`, action: 'team.add' },
      { actor: `merchant-user:${stored.id} ${email}`, action: 'team.enroll' },
    ]);
    const list = await (await page('/dashboard/team', adminSession.cookie)).text();
    expect(list).toContain(email);
    expect(list).toContain(`merchant-user:${admin.id} ${admin.email}`);
  });

  it('when a person lost their phone and an admin binds the new enrollment they read out, then their old password stops working and only the new device sets it again', async () => {
    const { merchantId, viewer, adminSession } = await team();
    const oldSession = await dashboardSessionOf(db, viewer);
    const newPhone = await openEnrollment(viewer.email);
    const wrong = await post('/dashboard/team/re-enroll', adminSession, {
      userId: String(viewer.id),
      fingerprint: 'AAAA-AAAA',
    });
    expect(wrong.status).toBe(400);
    expect((await db.merchantUser.findUniqueOrThrow({ where: { id: viewer.id } })).passwordHash).not.toBeNull();

    const rebound = await post('/dashboard/team/re-enroll', adminSession, {
      userId: String(viewer.id),
      fingerprint: newPhone.fingerprint,
    });
    expect(rebound.status).toBe(303);
    expect(await db.merchantUser.findUniqueOrThrow({ where: { id: viewer.id } })).toMatchObject({
      passwordHash: null,
      totpSealed: null,
    });
    expect((await page('/dashboard/team', oldSession.cookie)).status).toBe(303);
    const finished = await finishDashboardEnrollment(api.current.url, newPhone.cookie, 'a-new-password-after-loss');
    expect(finished.response.status).toBe(200);
    expect((await auditActions(merchantId)).map((a) => a.action)).toEqual(['team.re-enroll', 'team.enroll']);
  });

  it('when the fingerprint is not one of that e-mail, then nobody is added', async () => {
    const { merchantId, adminSession } = await team();
    const email = `typo-${merchantId}@person.example`;
    await openEnrollment(email);
    const refused = await post('/dashboard/team/add', adminSession, {
      email,
      role: 'VIEWER',
      fingerprint: 'AAAA-AAAA',
    });
    expect(refused.status).toBe(400);
    expect(await db.merchantUser.count({ where: { email } })).toBe(0);
    expect(await auditActions(merchantId)).toEqual([]);
  });

  it('when an admin changes a role or disables a person, then that person is signed out, and the audit says who did it', async () => {
    const { merchantId, admin, viewer, adminSession } = await team();
    const viewerSession = await dashboardSessionOf(db, viewer);
    expect((await page('/dashboard/team', viewerSession.cookie)).status).toBe(200);

    const changed = await post('/dashboard/team/role', adminSession, { userId: String(viewer.id), role: 'APPROVER' });
    expect(changed.status).toBe(303);
    expect((await db.merchantUser.findUniqueOrThrow({ where: { id: viewer.id } })).role).toBe('APPROVER');
    expect((await page('/dashboard/team', viewerSession.cookie)).status).toBe(303);

    const again = await dashboardSessionOf(db, viewer);
    const disabled = await post('/dashboard/team/disable', adminSession, { userId: String(viewer.id) });
    expect(disabled.status).toBe(303);
    expect((await page('/dashboard/team', again.cookie)).status).toBe(303);
    expect(await db.merchantUserSession.count({ where: { userId: viewer.id } })).toBe(0);
    const enabled = await post('/dashboard/team/enable', adminSession, { userId: String(viewer.id) });
    expect(enabled.status).toBe(303);

    const actor = `merchant-user:${admin.id} ${admin.email}`;
    expect(await auditActions(merchantId)).toEqual([
      { actor, action: 'team.role' },
      { actor, action: 'team.disable' },
      { actor, action: 'team.enable' },
    ]);
  });

  it("when an admin tries to change the owner, themselves, or another merchant's person, then nothing changes", async () => {
    const { merchantId, owner, admin, adminSession } = await team();
    const elsewhere = await team();
    const tries = [
      ['/dashboard/team/disable', owner.id, 403],
      ['/dashboard/team/role', owner.id, 403],
      ['/dashboard/team/disable', admin.id, 403],
      ['/dashboard/team/role', admin.id, 403],
      ['/dashboard/team/re-enroll', owner.id, 403],
      ['/dashboard/team/re-enroll', elsewhere.viewer.id, 404],
      ['/dashboard/team/disable', elsewhere.viewer.id, 404],
      ['/dashboard/team/role', elsewhere.viewer.id, 404],
    ] as const;
    for (const [path, userId, status] of tries) {
      const refused = await post(path, adminSession, {
        userId: String(userId),
        role: 'VIEWER',
        fingerprint: 'AAAA-AAAA',
      });
      expect({ path, userId, status: refused.status }).toEqual({ path, userId, status });
    }
    const after = await db.merchantUser.findMany({
      where: { id: { in: [owner.id, admin.id, elsewhere.viewer.id] } },
      select: { role: true, disabledAt: true },
      orderBy: { id: 'asc' },
    });
    expect(after).toEqual([
      { role: 'OWNER', disabledAt: null },
      { role: 'ADMIN', disabledAt: null },
      { role: 'VIEWER', disabledAt: null },
    ]);
    expect(await auditActions(merchantId)).toEqual([]);
    expect(await auditActions(elsewhere.merchantId)).toEqual([]);
  });

  it('when a viewer reads the team, then they see it without any form to change it', async () => {
    const { viewer, admin } = await team();
    const html = await (await page('/dashboard/team', (await dashboardSessionOf(db, viewer)).cookie)).text();
    expect(html).toContain(admin.email);
    expect(html).not.toContain('/dashboard/team/add');
    expect(html).not.toContain('/dashboard/team/disable');
  });
});

describe('the audit page', () => {
  it('when a merchant has more events than a page, then they are shown newest first, a page at a time, to the team permission only', async () => {
    const { merchantId, viewer, adminSession } = await team();
    for (let i = 1; i <= 55; i++) {
      await recordMerchantAudit(db, { merchantId, actor: 'test', action: `test.event-${i}` });
    }
    const first = await (await page('/dashboard/audit', adminSession.cookie)).text();
    const actionsOf = (html: string) => [...html.matchAll(/<td>(test\.event-\d+)<\/td>/g)].map((m) => m[1]);
    expect(actionsOf(first)).toHaveLength(50);
    expect(actionsOf(first)[0]).toBe('test.event-55');
    const older = /href="(\/dashboard\/audit\?before=\d+)"/.exec(first)![1]!;
    const second = await (await page(older, adminSession.cookie)).text();
    expect(actionsOf(second)).toEqual(['test.event-5', 'test.event-4', 'test.event-3', 'test.event-2', 'test.event-1']);
    expect((await page('/dashboard/audit', (await dashboardSessionOf(db, viewer)).cookie)).status).toBe(403);
  });
});
