import {
  addMerchantUser,
  deleteMerchantUserSessions,
  findMerchantEnrollmentsByFingerprint,
  lockMerchantTeamMember,
  rebindMerchantUser,
  recordMerchantAudit,
  setMerchantUserDisabled,
  setMerchantUserRole,
  type MerchantUserView,
  type PrismaClient,
} from '@payout/db';
import { ASSIGNABLE_MERCHANT_ROLES, merchantUserEmail, readFingerprint, type MerchantUserRole } from '@payout/domain';

/*
 * A merchant's owner and admins change its team (docs/dashboard.md, "The team"): each change in one
 * transaction with its line in the merchant's audit (recordMerchantAudit), by whom. The owner is changed only
 * through staff (a four-eyes request); nobody changes or disables themselves; a person whose role changes or
 * who is disabled is signed out everywhere at once.
 */

/** Who makes a change: a merchant's person ("merchant-user:<id> <email>") or staff ("console:<username>"). */
export interface TeamChangeActor {
  merchantId: number;
  /** The merchant user making the change, when it is one of the merchant's own people. */
  userId?: number;
  actor: string;
}

export type AddTeamMemberOutcome =
  | { kind: 'added'; user: MerchantUserView }
  | { kind: 'bad-email' }
  | { kind: 'bad-role' }
  | { kind: 'bad-fingerprint' }
  /** No open enrollment of this e-mail has that fingerprint (or more than one does: they open a fresh one). */
  | { kind: 'no-enrollment' }
  /** The e-mail is already someone's. */
  | { kind: 'taken' };

/** Adds a person, bound to the enrollment whose fingerprint they read to the one adding them. */
export async function addTeamMember(
  deps: { db: PrismaClient },
  by: TeamChangeActor,
  input: { email: string; role: string; fingerprint: string },
): Promise<AddTeamMemberOutcome> {
  const email = merchantUserEmail(input.email);
  if (!email) return { kind: 'bad-email' };
  const role = ASSIGNABLE_MERCHANT_ROLES.find((r) => r === input.role);
  if (!role) return { kind: 'bad-role' };
  const fingerprint = readFingerprint(input.fingerprint);
  if (!fingerprint) return { kind: 'bad-fingerprint' };
  const enrollments = await findMerchantEnrollmentsByFingerprint(deps.db, email, fingerprint);
  if (enrollments.length !== 1) return { kind: 'no-enrollment' };
  return deps.db.$transaction(async (tx) => {
    const user = await addMerchantUser(tx, {
      merchantId: by.merchantId,
      email,
      role,
      enrollmentDigest: enrollments[0]!.digest,
      addedBy: by.actor.slice(0, 100),
    });
    if (!user) return { kind: 'taken' } as const;
    await recordMerchantAudit(tx, {
      merchantId: by.merchantId,
      actor: by.actor,
      action: 'team.add',
      detail: { userId: user.id, email, role, fingerprint },
    });
    return { kind: 'added', user } as const;
  });
}

export type TeamChangeOutcome =
  | { kind: 'changed'; user: MerchantUserView }
  /** Not a person of this merchant. */
  | { kind: 'unknown' }
  | { kind: 'owner' }
  | { kind: 'self' }
  | { kind: 'bad-role' }
  | { kind: 'unchanged' };

/** Gives a person another assignable role; their sessions end, so their next page is under the new role. */
export async function changeTeamMemberRole(
  deps: { db: PrismaClient },
  by: TeamChangeActor,
  input: { userId: number; role: string },
): Promise<TeamChangeOutcome> {
  const role = ASSIGNABLE_MERCHANT_ROLES.find((r) => r === input.role);
  if (!role) return { kind: 'bad-role' };
  return changeMember(deps, by, input.userId, async (tx, member) => {
    if (member.role === role) return { kind: 'unchanged' };
    await setMerchantUserRole(tx, member.id, role);
    await deleteMerchantUserSessions(tx, member.id);
    await recordMerchantAudit(tx, {
      merchantId: by.merchantId,
      actor: by.actor,
      action: 'team.role',
      detail: { userId: member.id, email: member.email, from: member.role, to: role },
    });
    return { kind: 'changed', user: { ...member, role } };
  });
}

/**
 * Disables a person (every session of theirs ends at once) or enables them again. Staff may disable anyone,
 * the owner too, for an incident (docs/dashboard.md, "The team"); a merchant's own people never the owner.
 */
export async function setTeamMemberDisabled(
  deps: { db: PrismaClient },
  by: TeamChangeActor & { staff?: boolean },
  input: {
    userId: number;
    disabled: boolean;
    reason?: string;
    /** Staff's own audit line (the operator audit log), in the same transaction. */
    alsoAudit?: (tx: Transaction, member: MerchantUserView) => Promise<void>;
  },
): Promise<TeamChangeOutcome> {
  return changeMember(
    deps,
    by,
    input.userId,
    async (tx, member) => {
      if ((member.disabledAt !== null) === input.disabled) return { kind: 'unchanged' };
      await setMerchantUserDisabled(tx, member.id, input.disabled ? by.actor.slice(0, 100) : null);
      if (input.disabled) await deleteMerchantUserSessions(tx, member.id);
      await recordMerchantAudit(tx, {
        merchantId: by.merchantId,
        actor: by.actor,
        action: input.disabled ? 'team.disable' : 'team.enable',
        detail: { userId: member.id, email: member.email, ...(input.reason && { reason: input.reason }) },
      });
      await input.alsoAudit?.(tx, member);
      return {
        kind: 'changed',
        user: { ...member, disabledAt: input.disabled ? new Date() : null },
      };
    },
    by.staff === true,
  );
}

export type ReEnrollOutcome = TeamChangeOutcome | { kind: 'bad-fingerprint' } | { kind: 'no-enrollment' };

/**
 * Binds a person who lost their phone to a new enrollment they opened and read out (docs/dashboard.md,
 * "Enrollment"): their password, authenticator and recovery codes stop working, their sessions end, and only
 * the new enrollment's device sets them again. The owner is bound again only through staff.
 */
export async function reEnrollTeamMember(
  deps: { db: PrismaClient },
  by: TeamChangeActor,
  input: { userId: number; fingerprint: string },
): Promise<ReEnrollOutcome> {
  const fingerprint = readFingerprint(input.fingerprint);
  if (!fingerprint) return { kind: 'bad-fingerprint' };
  return changeMember<ReEnrollOutcome>(deps, by, input.userId, async (tx, member) => {
    const enrollments = await findMerchantEnrollmentsByFingerprint(tx, member.email, fingerprint);
    if (enrollments.length !== 1) return { kind: 'no-enrollment' };
    await rebindMerchantUser(tx, member.id, enrollments[0]!.digest);
    await deleteMerchantUserSessions(tx, member.id);
    await recordMerchantAudit(tx, {
      merchantId: by.merchantId,
      actor: by.actor,
      action: 'team.re-enroll',
      detail: { userId: member.id, email: member.email, fingerprint },
    });
    return { kind: 'changed', user: { ...member, enrolled: false, disabledAt: null } };
  });
}

type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

async function changeMember<Outcome extends { kind: string } = TeamChangeOutcome>(
  deps: { db: PrismaClient },
  by: TeamChangeActor,
  userId: number,
  change: (tx: Transaction, member: MerchantUserView & { role: MerchantUserRole }) => Promise<Outcome>,
  ownerToo = false,
): Promise<Outcome | TeamChangeOutcome> {
  if (by.userId === userId) return { kind: 'self' };
  return deps.db.$transaction(async (tx): Promise<Outcome | TeamChangeOutcome> => {
    const member = await lockMerchantTeamMember(tx, by.merchantId, userId);
    if (!member) return { kind: 'unknown' };
    if (member.role === 'OWNER' && !ownerToo) return { kind: 'owner' };
    return change(tx, member);
  });
}
