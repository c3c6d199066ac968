import {
  addMerchantUser,
  deleteMerchantUserSessions,
  findMerchantByMid,
  findMerchantEnrollmentsByFingerprint,
  findMerchantOwner,
  findOpenMerchantEnrollmentById,
  lockMerchantOwner,
  rebindMerchantUser,
  merchantUserEmailTaken,
  recordMerchantAudit,
  type PrismaClient,
} from '@payout/db';
import { merchantUserEmail, readFingerprint } from '@payout/domain';
import { audit } from '../audit.js';
import type { MoneyAction, PlannedRequest } from '../approvals/money-action.js';
import { actorOf, type Person } from '../approvals/person.js';
import { setTeamMemberDisabled, type TeamChangeOutcome } from './merchant-team.js';

/*
 * A merchant's owner (docs/dashboard.md, "Enrollment"): the one person of a merchant whom staff bind to an
 * enrollment, since nobody on the merchant's side can vouch for them yet. The owner opens an enrollment on
 * their own device and reads its fingerprint to a staff person, who asks; a second staff person checks the
 * fingerprint with the owner and approves. The same request binds them again when they lose their phone:
 * their password, second factor and recovery codes are wiped, and every session of theirs ends.
 */

export type PlanOwnerEnrollOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  | { kind: 'no-merchant' }
  | { kind: 'bad-email' }
  | { kind: 'bad-fingerprint' }
  /** No open enrollment of that e-mail has that fingerprint: the owner opens one and reads it out. */
  | { kind: 'no-enrollment'; fingerprint: string }
  /** The merchant's owner has another e-mail, or the e-mail is someone else's. */
  | { kind: 'not-the-owner'; owner: string | null };

interface OwnerEnrollParams {
  merchantId: number;
  mid: string;
  email: string;
  enrollmentId: number;
  fingerprint: string;
}

/** A request binding the owner of `mid` (made now when the merchant has none) to the enrollment named. */
export async function planOwnerEnroll(
  deps: { db: PrismaClient },
  input: { mid: string; email: string; fingerprint: string },
): Promise<PlanOwnerEnrollOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  const email = merchantUserEmail(input.email);
  if (!email) return { kind: 'bad-email' };
  const fingerprint = readFingerprint(input.fingerprint);
  if (!fingerprint) return { kind: 'bad-fingerprint' };
  const owner = await findMerchantOwner(deps.db, merchant.id);
  if (owner ? owner.email !== email : await merchantUserEmailTaken(deps.db, email)) {
    return { kind: 'not-the-owner', owner: owner?.email ?? null };
  }
  const [found, ...others] = await findMerchantEnrollmentsByFingerprint(deps.db, email, fingerprint);
  // Two of one e-mail with one fingerprint is a 1-in-2^40 chance, or someone grinding: neither is asked for.
  if (!found || others.length > 0) return { kind: 'no-enrollment', fingerprint };
  const params: OwnerEnrollParams = {
    merchantId: merchant.id,
    mid: merchant.mid,
    email,
    enrollmentId: found.id,
    fingerprint,
  };
  const again = owner?.enrolled === true;
  return {
    kind: 'planned',
    planned: {
      action: 'merchant-owner.enroll',
      merchantId: merchant.id,
      params: { ...params },
      preview: {
        summary:
          `${again ? 'Enroll again' : 'Enroll'} ${email}, owner of merchant ${merchant.mid} (${merchant.name}), ` +
          `with the enrollment of fingerprint ${fingerprint}: approve only once the owner has read you this ` +
          'fingerprint themselves' +
          (again ? '. Their password, authenticator and recovery codes stop working, and they are signed out' : ''),
        mid: merchant.mid,
        email,
        fingerprint,
        ...(again && { reEnrollment: true }),
      },
    },
  };
}

/** The approved binding, in the approver's transaction: refused when the enrollment closed or the owner changed. */
export const merchantOwnerEnroll = {
  action: 'merchant-owner.enroll',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as OwnerEnrollParams;
    const enrollment = await findOpenMerchantEnrollmentById(tx, params.enrollmentId);
    if (!enrollment || enrollment.email !== params.email || enrollment.fingerprint !== params.fingerprint) {
      return {
        kind: 'refused',
        why: `the enrollment ${params.fingerprint} has expired or was used; the owner opens a new one`,
      };
    }
    const owner = await lockMerchantOwner(tx, params.merchantId);
    let ownerId: number;
    if (owner) {
      if (owner.email !== params.email)
        return { kind: 'refused', why: `the owner of ${params.mid} is now ${owner.email}` };
      await rebindMerchantUser(tx, owner.id, enrollment.digest);
      await deleteMerchantUserSessions(tx, owner.id);
      ownerId = owner.id;
    } else {
      const made = await addMerchantUser(tx, {
        merchantId: params.merchantId,
        email: params.email,
        role: 'OWNER',
        enrollmentDigest: enrollment.digest,
        addedBy: actorOf(approver),
      });
      if (!made) return { kind: 'refused', why: `${params.email} is already someone else's` };
      ownerId = made.id;
    }
    const detail = { mid: params.mid, email: params.email, fingerprint: params.fingerprint, approvalId: request.id };
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'merchant-owner.enroll', {
      merchantId: params.merchantId,
      detail: { ...detail, requestedBy: request.maker, approvedBy: approver.username },
    });
    await recordMerchantAudit(tx, {
      merchantId: params.merchantId,
      actor: actorOf(approver),
      action: owner?.enrolled ? 'owner.re-enroll' : 'owner.enroll',
      detail: { userId: ownerId, email: params.email, fingerprint: params.fingerprint, requestedBy: request.maker },
    });
    return {
      kind: 'executed',
      outcome: { mid: params.mid, email: params.email, reEnrollment: owner?.enrolled === true },
    };
  },
} satisfies MoneyAction;

/**
 * Staff disable a merchant's person for an incident (docs/dashboard.md, "The team"): one person alone, since it
 * only takes power away, the owner too; audited in the operator audit log and in the merchant's own.
 */
export async function staffDisableMerchantUser(
  deps: { db: PrismaClient },
  person: Person,
  input: { mid: string; userId: number; why: string },
): Promise<TeamChangeOutcome | { kind: 'no-merchant' }> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  return setTeamMemberDisabled(
    deps,
    { merchantId: merchant.id, actor: actorOf(person), staff: true },
    {
      userId: input.userId,
      disabled: true,
      reason: input.why,
      alsoAudit: (tx, member) =>
        audit(tx, { actor: actorOf(person), reason: input.why }, 'merchant-user.disable', {
          merchantId: merchant.id,
          detail: { mid: merchant.mid, userId: member.id, email: member.email },
        }),
    },
  );
}
