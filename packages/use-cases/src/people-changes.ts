import {
  ConsoleUsernameTakenError,
  createConsoleUser,
  disableConsoleUser,
  findConsoleUser,
  resetConsolePassword,
  setConsoleRole,
  type ConsoleUserView,
  type PrismaClient,
} from '@payout/db';
import { CONSOLE_USERNAME_PATTERN, hashPassword, newPassword, type ConsoleRole } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf, type Person } from './approvals/person.js';

/*
 * Changes to people (docs/operations.md, "Security model"): adding a person, changing a role and resetting
 * a password give someone power over money, so each is a request another approver approves — as a money
 * action is. On approval the new password is made in the approver's transaction and handed to the approver
 * once; the person must choose their own at first sign-in, so whoever saw it cannot quietly act as them.
 * Disabling a person only takes power away: one approver does it alone.
 */

export type PlanPeopleChangeOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  | { kind: 'bad-username' }
  | { kind: 'taken' }
  | { kind: 'no-user' }
  | { kind: 'disabled' }
  | { kind: 'same-role'; role: ConsoleRole };

interface UserAddParams {
  username: string;
  role: ConsoleRole;
}
interface RoleChangeParams {
  username: string;
  from: ConsoleRole;
  to: ConsoleRole;
}
interface PasswordResetParams {
  username: string;
}

/** A password made now, and its hash: made before the approver's transaction (scrypt takes tens of ms). */
interface OneTimePassword {
  password: string;
  hash: string;
}
async function oneTimePassword(): Promise<OneTimePassword> {
  const password = newPassword();
  return { password, hash: await hashPassword(password) };
}

const lower = (role: ConsoleRole) => role.toLowerCase();

/** A new person, described for the approver: the name is free and well-formed. */
export async function planUserAdd(
  deps: { db: PrismaClient },
  input: { username: string; role: ConsoleRole },
): Promise<PlanPeopleChangeOutcome> {
  if (!CONSOLE_USERNAME_PATTERN.test(input.username)) return { kind: 'bad-username' };
  if (await findConsoleUser(deps.db, input.username)) return { kind: 'taken' };
  const params: UserAddParams = { username: input.username, role: input.role };
  return {
    kind: 'planned',
    planned: {
      action: 'user.add',
      merchantId: null,
      params: { ...params },
      preview: {
        summary: `Add ${input.username} as ${lower(input.role)}; the one-time password is shown once, to the approver`,
        username: input.username,
        role: lower(input.role),
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

/** A new password for a person, described for the approver: it ends their sessions and credentials. */
export async function planPasswordReset(
  deps: { db: PrismaClient },
  input: { username: string },
): Promise<PlanPeopleChangeOutcome> {
  const user = await findConsoleUser(deps.db, input.username);
  if (!user) return { kind: 'no-user' };
  const params: PasswordResetParams = { username: user.username };
  return {
    kind: 'planned',
    planned: {
      action: 'user.password-reset',
      merchantId: null,
      params: { ...params },
      preview: {
        summary: `Reset the password of ${user.username} (${lower(user.role)}): their sessions, keys and sign-ins end, and the one-time password is shown once, to the approver`,
        username: user.username,
        role: lower(user.role),
        disabledBefore: user.disabledAt !== null,
      },
    },
  };
}

function handOverOf(user: ConsoleUserView, password: string) {
  return { username: user.username, oneTimePassword: password };
}

/** The approved new person: made with a one-time password they must change at first sign-in. */
export const userAdd = {
  action: 'user.add',
  prepare: () => oneTimePassword(),
  async execute({ tx, request, approver }, otp) {
    const params = request.params as unknown as UserAddParams;
    let user: ConsoleUserView;
    try {
      user = await createConsoleUser(tx, {
        username: params.username,
        role: params.role,
        passwordHash: otp.hash,
        mustChangePassword: true,
      });
    } catch (error) {
      if (error instanceof ConsoleUsernameTakenError) return { kind: 'refused', why: `${params.username} exists now` };
      throw error;
    }
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'user.add', {
      detail: { username: user.username, role: user.role, approvalId: request.id, requestedBy: request.maker },
    });
    return {
      kind: 'executed',
      outcome: { username: user.username, role: user.role },
      handOver: handOverOf(user, otp.password),
    };
  },
} satisfies MoneyAction<OneTimePassword>;

/** The approved role, if the person still has the role the approver was shown. */
export const roleChange = {
  action: 'user.role',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as RoleChangeParams;
    const user = await findConsoleUser(tx, params.username);
    if (!user) return { kind: 'refused', why: `${params.username} is gone` };
    if (user.disabledAt) return { kind: 'refused', why: `${params.username} is disabled` };
    if (user.role !== params.from) {
      return { kind: 'refused', why: `${params.username} is ${lower(user.role)} now, not ${lower(params.from)}` };
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

/** The approved reset: a one-time password, every session and credential of theirs ended, enabled again. */
export const passwordReset = {
  action: 'user.password-reset',
  prepare: () => oneTimePassword(),
  async execute({ tx, request, approver }, otp) {
    const params = request.params as unknown as PasswordResetParams;
    const user = await resetConsolePassword(tx, params.username, otp.hash, true);
    if (!user) return { kind: 'refused', why: `${params.username} is gone` };
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'user.password-reset', {
      detail: { username: user.username, approvalId: request.id, requestedBy: request.maker },
    });
    return { kind: 'executed', outcome: { username: user.username }, handOver: handOverOf(user, otp.password) };
  },
} satisfies MoneyAction<OneTimePassword>;

export type DisableUserOutcome = { kind: 'disabled'; user: ConsoleUserView } | { kind: 'no-user' };

/**
 * Disables a person at once: no sign-in, every session ended, every key and sign-in revoked. It takes power
 * away and moves no money, so one approver does it alone (the route allows only approvers).
 */
export async function disableUser(
  deps: { db: PrismaClient },
  input: { username: string; by: Person; reason: string },
): Promise<DisableUserOutcome> {
  return deps.db.$transaction(async (tx) => {
    const user = await disableConsoleUser(tx, input.username);
    if (!user) return { kind: 'no-user' } as const;
    await audit(tx, { actor: actorOf(input.by), reason: input.reason }, 'user.disable', {
      detail: { username: user.username, role: user.role },
    });
    return { kind: 'disabled', user } as const;
  });
}
