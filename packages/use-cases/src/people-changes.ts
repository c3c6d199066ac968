import {
  awaitReenrollment,
  countEnabledApprovers,
  createConsoleUser,
  ConsoleUsernameTakenError,
  disableConsoleUser,
  findConsoleUser,
  findEnrollmentsByFingerprint,
  lockApproverChanges,
  setConsoleRole,
  type ConsoleUserView,
  type PrismaClient,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { CONSOLE_USERNAME_PATTERN, readFingerprint, removingApproverProblem, type ConsoleRole } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf, type Person } from './approvals/person.js';

/*
 * Changes to people (docs/operations.md, "People and roles"): adding a person, another role and a reset give
 * someone power over money, so each is a request another approver approves — as a money action is. Nobody is
 * handed a secret: the person to be added or reset has opened an enrollment on their own device and read its
 * fingerprint to the person asking; the request names it, the approver checks it with them, and the approval
 * binds the account to that enrollment, which only its holder can complete. Disabling a person only takes
 * power away: one approver does it alone. Neither may leave fewer than two enabled approvers.
 */

export type PlanPeopleChangeOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  | { kind: 'bad-username' }
  | { kind: 'bad-fingerprint' }
  /** No open enrollment of that name has that fingerprint: they open one, and read it out. */
  | { kind: 'no-enrollment'; fingerprint: string }
  | { kind: 'taken' }
  | { kind: 'no-user' }
  | { kind: 'disabled' }
  | { kind: 'same-role'; role: ConsoleRole };

/** The enrollment a request binds the account to: found again, by id, name and fingerprint, on approval. */
interface BoundEnrollment {
  enrollmentId: number;
  fingerprint: string;
}
interface UserAddParams extends BoundEnrollment {
  username: string;
  role: ConsoleRole;
}
interface RoleChangeParams {
  username: string;
  from: ConsoleRole;
  to: ConsoleRole;
}
interface ReenrollParams extends BoundEnrollment {
  username: string;
}

const lower = (role: ConsoleRole) => role.toLowerCase();

/** The one open enrollment of `username` with this fingerprint, or why there is none. */
async function enrollmentNamed(
  db: PrismaClientOrTransaction,
  username: string,
  typed: string,
): Promise<BoundEnrollment | { kind: 'bad-fingerprint' } | { kind: 'no-enrollment'; fingerprint: string }> {
  const fingerprint = readFingerprint(typed);
  if (!fingerprint) return { kind: 'bad-fingerprint' };
  const [found, ...others] = await findEnrollmentsByFingerprint(db, username, fingerprint);
  // Two of one name with one fingerprint is a 1-in-2^40 chance, or someone grinding: neither is approved.
  if (!found || others.length > 0) return { kind: 'no-enrollment', fingerprint };
  return { enrollmentId: found.id, fingerprint };
}

/** The enrollment a request named, if it is still open, of that name and that fingerprint: its digest. */
async function enrollmentDigestOf(
  db: PrismaClientOrTransaction,
  params: BoundEnrollment & { username: string },
): Promise<string | null> {
  const found = await db.consoleEnrollment.findUnique({ where: { id: params.enrollmentId } });
  if (!found || found.expiresAt <= new Date()) return null;
  if (found.username !== params.username || found.fingerprint !== params.fingerprint) return null;
  return found.digest;
}

const checkFingerprint = (username: string, fingerprint: string) =>
  `Before approving, check with ${username} — in person or on a call you placed — that their enrollment shows ${fingerprint}`;

/** A new person, described for the approver: the name is free, and they have opened the enrollment named. */
export async function planUserAdd(
  deps: { db: PrismaClient },
  input: { username: string; role: ConsoleRole; fingerprint: string },
): Promise<PlanPeopleChangeOutcome> {
  if (!CONSOLE_USERNAME_PATTERN.test(input.username)) return { kind: 'bad-username' };
  if (await findConsoleUser(deps.db, input.username)) return { kind: 'taken' };
  const bound = await enrollmentNamed(deps.db, input.username, input.fingerprint);
  if ('kind' in bound) return bound;
  const params: UserAddParams = { username: input.username, role: input.role, ...bound };
  return {
    kind: 'planned',
    planned: {
      action: 'user.add',
      merchantId: null,
      params: { ...params },
      preview: {
        summary: `Add ${input.username} as ${lower(input.role)}, enrolling themselves with fingerprint ${bound.fingerprint}`,
        username: input.username,
        role: lower(input.role),
        fingerprint: bound.fingerprint,
        check: checkFingerprint(input.username, bound.fingerprint),
      },
    },
  };
}

/** Another role for a person, described for the approver with the role it replaces. */
export async function planRoleChange(
  deps: { db: PrismaClient },
  input: { username: string; role: ConsoleRole },
): Promise<PlanPeopleChangeOutcome> {
  const user = await findConsoleUser(deps.db, input.username);
  if (!user) return { kind: 'no-user' };
  if (user.disabledAt) return { kind: 'disabled' };
  if (user.role === input.role) return { kind: 'same-role', role: user.role };
  const params: RoleChangeParams = { username: user.username, from: user.role, to: input.role };
  return {
    kind: 'planned',
    planned: {
      action: 'user.role',
      merchantId: null,
      params: { ...params },
      preview: {
        summary: `Make ${user.username} ${lower(input.role)} (now ${lower(user.role)})`,
        username: user.username,
        roleBefore: lower(user.role),
        roleAfter: lower(input.role),
      },
    },
  };
}

/**
 * A reset, described for the approver: the person has lost their password or authenticator and opened a new
 * enrollment; on approval every session and credential of theirs ends and the account waits for them to
 * enroll again through it. A disabled person stays disabled.
 */
export async function planPasswordReset(
  deps: { db: PrismaClient },
  input: { username: string; fingerprint: string },
): Promise<PlanPeopleChangeOutcome> {
  const user = await findConsoleUser(deps.db, input.username);
  if (!user) return { kind: 'no-user' };
  const bound = await enrollmentNamed(deps.db, user.username, input.fingerprint);
  if ('kind' in bound) return bound;
  const params: ReenrollParams = { username: user.username, ...bound };
  return {
    kind: 'planned',
    planned: {
      action: 'user.password-reset',
      merchantId: null,
      params: { ...params },
      preview: {
        summary: `Reset ${user.username} (${lower(user.role)}): their sessions, keys, sign-ins, password and second factor end, and they enroll again with fingerprint ${bound.fingerprint}`,
        username: user.username,
        role: lower(user.role),
        fingerprint: bound.fingerprint,
        disabled: user.disabledAt !== null,
        check: checkFingerprint(user.username, bound.fingerprint),
      },
    },
  };
}

/** The approved new person: an account bound to the enrollment they opened, awaiting their own secrets. */
export const userAdd = {
  action: 'user.add',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as UserAddParams;
    const digest = await enrollmentDigestOf(tx, params);
    if (!digest)
      return { kind: 'refused', why: `the enrollment ${params.fingerprint} of ${params.username} has expired` };
    let user: ConsoleUserView;
    try {
      user = await createConsoleUser(tx, { username: params.username, role: params.role, enrollmentDigest: digest });
    } catch (error) {
      if (error instanceof ConsoleUsernameTakenError) return { kind: 'refused', why: `${params.username} exists now` };
      throw error;
    }
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'user.add', {
      detail: {
        username: user.username,
        role: user.role,
        fingerprint: params.fingerprint,
        approvalId: request.id,
        requestedBy: request.maker,
      },
    });
    return { kind: 'executed', outcome: { username: user.username, role: user.role, awaitingEnrollment: true } };
  },
} satisfies MoneyAction;

/** The approved role, if the person still has the role the approver was shown. */
export const roleChange = {
  action: 'user.role',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as RoleChangeParams;
    await lockApproverChanges(tx);
    const user = await findConsoleUser(tx, params.username);
    if (!user) return { kind: 'refused', why: `${params.username} is gone` };
    if (user.disabledAt) return { kind: 'refused', why: `${params.username} is disabled` };
    if (user.role !== params.from) {
      return { kind: 'refused', why: `${params.username} is ${lower(user.role)} now, not ${lower(params.from)}` };
    }
    if (params.from === 'APPROVER') {
      const problem = removingApproverProblem(await countEnabledApprovers(tx));
      if (problem) return { kind: 'refused', why: problem };
    }
    await setConsoleRole(tx, params.username, params.to);
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'user.role', {
      detail: {
        username: params.username,
        from: params.from,
        to: params.to,
        approvalId: request.id,
        requestedBy: request.maker,
      },
    });
    return { kind: 'executed', outcome: { username: params.username, from: params.from, to: params.to } };
  },
} satisfies MoneyAction;

/** The approved reset: everything of theirs ended, the account awaiting them through their new enrollment. */
export const passwordReset = {
  action: 'user.password-reset',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as ReenrollParams;
    const digest = await enrollmentDigestOf(tx, params);
    if (!digest)
      return { kind: 'refused', why: `the enrollment ${params.fingerprint} of ${params.username} has expired` };
    const user = await awaitReenrollment(tx, params.username, digest);
    if (!user) return { kind: 'refused', why: `${params.username} is gone` };
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'user.password-reset', {
      detail: {
        username: user.username,
        fingerprint: params.fingerprint,
        approvalId: request.id,
        requestedBy: request.maker,
      },
    });
    return {
      kind: 'executed',
      outcome: { username: user.username, awaitingEnrollment: true, disabled: user.disabledAt !== null },
    };
  },
} satisfies MoneyAction;

export type DisableUserOutcome =
  { kind: 'disabled'; user: ConsoleUserView } | { kind: 'no-user' } | { kind: 'last-approvers'; why: string };

/**
 * Disables a person at once: no sign-in, every session ended, every key and sign-in revoked. It takes power
 * away and moves no money, so one approver does it alone (the route allows only approvers) — but never an
 * approver whose going would leave fewer than two enabled: one approver could otherwise shut out every
 * other and be the only one left.
 */
export async function disableUser(
  deps: { db: PrismaClient },
  input: { username: string; by: Person; reason: string },
): Promise<DisableUserOutcome> {
  return deps.db.$transaction(async (tx) => {
    await lockApproverChanges(tx);
    const target = await findConsoleUser(tx, input.username);
    if (!target) return { kind: 'no-user' } as const;
    if (target.role === 'APPROVER' && !target.disabledAt) {
      const problem = removingApproverProblem(await countEnabledApprovers(tx));
      if (problem) return { kind: 'last-approvers', why: problem } as const;
    }
    const user = (await disableConsoleUser(tx, input.username))!;
    await audit(tx, { actor: actorOf(input.by), reason: input.reason }, 'user.disable', {
      detail: { username: user.username, role: user.role },
    });
    return { kind: 'disabled', user } as const;
  });
}
