import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchantToken } from '@payout/client';
import { EXIT_OK } from '@payout/cli';
import type { PrismaClient } from '@payout/db';
import { totpCode } from '@payout/domain';
import { useApi } from '../support/api.js';
import { fourEyes, runCliAs, type CliResult } from '../support/approvals.js';
import { testPrisma } from '../support/database.js';
import {
  finishDashboardEnrollment,
  freshDashboardCode,
  openDashboardEnrollment,
  signInToDashboard,
} from '../support/dashboard-people.js';

// A merchant's owner on the dashboard (docs/dashboard.md, "Enrollment"): made when staff onboard the merchant,
// bound to the enrollment they opened themselves only through a request one staff person makes and another
// approves — and bound again the same way after a lost phone — and disabled by staff for an incident. Each
// through the CLI, which posts to the admin JSON API.

const api = useApi();
let db: PrismaClient;
let maker: string;
let makerKey: string;
let approver: string;
let approverKey: string;

beforeAll(async () => {
  db = testPrisma();
  ({ maker, makerKey, approver, approverKey } = await fourEyes());
});
afterAll(() => db.$disconnect());

async function askedAndApproved(...argv: string[]): Promise<{ asked: CliResult; approved: CliResult }> {
  const asked = await runCliAs(api.current.adminUrl, makerKey, [...argv, '--json']);
  expect(asked.status, asked.stderr).toBe(EXIT_OK);
  const id = (JSON.parse(asked.stdout) as { approvalId: string }).approvalId;
  const approved = await runCliAs(api.current.adminUrl, approverKey, ['approval', 'approve', '--id', id, '--json']);
  expect(approved.status, approved.stderr).toBe(EXIT_OK);
  return { asked, approved };
}

async function onboarded(ownerEmail: string): Promise<{ mid: string; merchantId: number }> {
  const made = await newMerchantToken();
  const mid = `OWN${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1000)}`;
  await askedAndApproved(
    'merchant',
    'create',
    '--name',
    'Owned Co',
    '--mid',
    mid,
    '--token-digest',
    made.sha256,
    '--token-prefix',
    made.prefix,
    '--owner-email',
    ownerEmail,
  );
  const merchant = await db.merchant.findUniqueOrThrow({ where: { mid } });
  return { mid, merchantId: merchant.id };
}

/** Staff bind the owner of `mid` to the enrollment of this fingerprint: one asks, another approves. */
function ownerBound(mid: string, email: string, fingerprint: string) {
  return askedAndApproved('merchant', 'owner-enroll', '--mid', mid, '--email', email, '--fingerprint', fingerprint);
}

/** The owner opens an enrollment, staff bind it with four eyes, and the owner finishes it on their device. */
async function ownerEnrolled(mid: string, email: string, password: string) {
  const device = await openDashboardEnrollment(api.current.url, email);
  await ownerBound(mid, email, device.fingerprint);
  return finishDashboardEnrollment(api.current.url, device.cookie, password);
}

const signedIn = async (cookie: string) =>
  (await fetch(`${api.current.url}/dashboard/login`, { headers: { Cookie: cookie }, redirect: 'manual' })).status ===
  303;

describe('the owner of a merchant’s dashboard', () => {
  it('when a merchant is onboarded with an owner’s e-mail and staff bind the owner’s enrollment with four eyes, then only the owner finishes it and signs in', async () => {
    const email = `owner-${Date.now().toString(36)}@owned.example`;
    const { mid, merchantId } = await onboarded(email);
    const owner = await db.merchantUser.findUniqueOrThrow({ where: { email } });
    expect(owner).toMatchObject({ merchantId, role: 'OWNER', passwordHash: null, enrollmentDigest: null });
    expect(owner.addedBy).toBe(`cli:${approver}`);

    const device = await openDashboardEnrollment(api.current.url, email);
    const asked = await runCliAs(api.current.adminUrl, makerKey, [
      'merchant',
      'owner-enroll',
      '--mid',
      mid,
      '--email',
      email,
      '--fingerprint',
      device.fingerprint,
      '--note',
      'the owner read me the fingerprint on a call',
      '--json',
    ]);
    expect(asked.status, asked.stderr).toBe(EXIT_OK);
    const request = JSON.parse(asked.stdout) as { approvalId: string; action: string; state: string };
    expect(request).toMatchObject({ action: 'merchant-owner.enroll', state: 'REQUESTED' });
    // Until a second person approves, the owner's enrollment only waits.
    expect(
      await (await fetch(`${api.current.url}/dashboard/enroll`, { headers: { Cookie: device.cookie } })).text(),
    ).toContain(device.fingerprint);
    const approved = await runCliAs(api.current.adminUrl, approverKey, [
      'approval',
      'approve',
      '--id',
      request.approvalId,
      '--json',
    ]);
    expect(approved.status, approved.stderr).toBe(EXIT_OK);

    const finished = await finishDashboardEnrollment(api.current.url, device.cookie, 'the-owners-own-password');
    expect(finished.response.status).toBe(200);
    expect(await signedIn(finished.cookie)).toBe(true);
    // Nothing staff can read holds the owner's seed or password.
    const staffRecords = JSON.stringify(
      await db.approvalRequest.findMany({ where: { id: BigInt(request.approvalId) } }),
      (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v),
    );
    expect(staffRecords).not.toContain(finished.seed);
    expect(staffRecords).not.toContain('the-owners-own-password');
    const merchantAudit = await db.merchantAuditEvent.findMany({ where: { merchantId }, orderBy: { id: 'asc' } });
    expect(merchantAudit.map((e) => [e.actor, e.action])).toEqual([
      [`cli:${approver}`, 'team.owner'],
      [`cli:${approver}`, 'owner.enroll'],
      [`merchant-user:${owner.id} ${email}`, 'team.enroll'],
    ]);
  });

  it('when an owner lost their phone and staff bind a new enrollment, then their old password, authenticator and sessions stop working', async () => {
    const email = `lost-${Date.now().toString(36)}@owned.example`;
    const { mid, merchantId } = await onboarded(email);
    const enrolled = await ownerEnrolled(mid, email, 'first-password-of-owner');
    expect(await signedIn(enrolled.cookie)).toBe(true);

    const newPhone = await openDashboardEnrollment(api.current.url, email);
    await ownerBound(mid, email, newPhone.fingerprint);
    expect(await signedIn(enrolled.cookie)).toBe(false);
    const owner = await db.merchantUser.findUniqueOrThrow({ where: { email } });
    expect(owner).toMatchObject({ passwordHash: null, totpSealed: null });
    const old = await signInToDashboard(api.current.url, {
      email,
      password: 'first-password-of-owner',
      code: totpCode(enrolled.seed, new Date(Date.now() + 30_000)),
    });
    expect(old.response.status).toBe(401);

    const again = await finishDashboardEnrollment(api.current.url, newPhone.cookie, 'second-password-of-owner');
    expect(again.response.status).toBe(200);
    expect(await signedIn(again.cookie)).toBe(true);
    const actions = await db.merchantAuditEvent.findMany({ where: { merchantId }, orderBy: { id: 'asc' } });
    expect(actions.map((e) => e.action)).toEqual([
      'team.owner',
      'owner.enroll',
      'team.enroll',
      'owner.re-enroll',
      'team.enroll',
    ]);
  });

  it('when the fingerprint is not one the owner’s e-mail opened, then nothing is asked for', async () => {
    const email = `typo-${Date.now().toString(36)}@owned.example`;
    const { mid } = await onboarded(email);
    await openDashboardEnrollment(api.current.url, email);
    const asked = await runCliAs(api.current.adminUrl, makerKey, [
      'merchant',
      'owner-enroll',
      '--mid',
      mid,
      '--email',
      email,
      '--fingerprint',
      'AAAA-AAAA',
      '--json',
    ]);
    expect(asked.status).not.toBe(EXIT_OK);
    expect(`${asked.stdout}${asked.stderr}`).toContain('No open enrollment of that e-mail');
    expect(
      await db.approvalRequest.count({
        where: { action: 'merchant-owner.enroll', params: { path: ['mid'], equals: mid } },
      }),
    ).toBe(0);
  });

  it('when staff disable a person for an incident, then they are signed out, and both audits say who', async () => {
    const email = `incident-${Date.now().toString(36)}@owned.example`;
    const { mid, merchantId } = await onboarded(email);
    const enrolled = await ownerEnrolled(mid, email, 'incident-owner-password');
    const owner = await db.merchantUser.findUniqueOrThrow({ where: { email } });

    const disabled = await runCliAs(api.current.adminUrl, makerKey, [
      'merchant',
      'disable-person',
      '--mid',
      mid,
      '--user-id',
      String(owner.id),
      '--note',
      'their laptop was stolen',
      '--json',
    ]);
    expect(disabled.status, disabled.stderr).toBe(EXIT_OK);
    expect(await signedIn(enrolled.cookie)).toBe(false);
    const refused = await signInToDashboard(api.current.url, {
      email,
      password: 'incident-owner-password',
      code: await freshDashboardCode(db, owner),
    });
    expect(refused.response.status).toBe(401);
    const operatorAudit = await db.operatorAction.findFirstOrThrow({
      where: { action: 'merchant-user.disable', merchantId },
    });
    expect(operatorAudit).toMatchObject({ actor: `cli:${maker}`, reason: 'their laptop was stolen' });
    const merchantAudit = await db.merchantAuditEvent.findFirstOrThrow({
      where: { merchantId, action: 'team.disable' },
    });
    expect(merchantAudit.actor).toBe(`cli:${maker}`);

    // Enrolled again through staff, on a new device, the owner is back.
    const back = await ownerEnrolled(mid, email, 'incident-owner-new-password');
    expect(back.response.status).toBe(200);
    expect(await signedIn(back.cookie)).toBe(true);
  });
});
