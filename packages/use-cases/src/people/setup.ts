import {
  awaitReenrollment,
  countEnrolledApprovers,
  createConsoleUser,
  createFirstApprover,
  ConsoleUsernameTakenError,
  findConsoleUser,
  lockApproverChanges,
  openEnrollment,
  setConsoleRole,
  type PrismaClient,
} from '@payout/db';
import {
  CONSOLE_USERNAME_PATTERN,
  ENROLLMENT_TTL_MS,
  enrollmentDigest,
  enrollmentFingerprint,
  newEnrollmentSecret,
} from '@payout/domain';
import { audit } from '../audit.js';

/*
 * The two doors that make an approver without a second approver, both with the database credential and
 * both audited (docs/operations.md, "A new installation" and "Break-glass"):
 * - `pnpm cli setup`: the first approver of a database that has never had a person;
 * - `pnpm cli break-glass approver`: an approver when no enrolled, enabled approver is left.
 * Each leaves the approver awaiting their own enrollment, whose secret goes to the terminal that ran the
 * command (the person at it enrolls with `pnpm cli enroll`), and puts the installation in setup: its
 * approvers enroll people alone, shown on every console page, until a second approver has enrolled; no money
 * request can be approved meanwhile.
 */

export type FirstApproverOutcome =
  | { kind: 'made'; username: string; secret: string; fingerprint: string }
  | { kind: 'bad-username' }
  /** The installation was set up before, or has people already: people are added by request from now on. */
  | { kind: 'set-up-already' };

export async function setUpFirstApprover(
  deps: { db: PrismaClient },
  input: { username: string; runBy: string },
): Promise<FirstApproverOutcome> {
  if (!CONSOLE_USERNAME_PATTERN.test(input.username)) return { kind: 'bad-username' };
  const secret = newEnrollmentSecret();
  const digest = enrollmentDigest(secret);
  const made = await createFirstApprover(deps.db, { username: input.username, enrollmentDigest: digest });
  if (!made) return { kind: 'set-up-already' };
  await audit(deps.db, { actor: `setup:${input.runBy}`, reason: 'pnpm cli setup' }, 'setup.first-approver', {
    detail: { username: made.username },
  });
  return { kind: 'made', username: made.username, secret, fingerprint: enrollmentFingerprint(digest) };
}

export type BreakGlassOutcome =
  | { kind: 'made'; username: string; secret: string; fingerprint: string }
  | { kind: 'bad-username' }
  /** Enrolled, enabled approvers exist: they add people by request; this door stays shut. */
  | { kind: 'approvers-left'; enrolledApprovers: number };

/**
 * An approver made with the database credential when no enrolled, enabled approver is left: a new person,
 * or an existing one made approver and left awaiting re-enrollment (enabled again). Audited as break-glass
 * with who ran it and why; the worker's `console_break_glass_actions_24h` pages (docs/operations.md,
 * "Break-glass").
 */
export async function breakGlassApprover(
  deps: { db: PrismaClient },
  input: { username: string; runBy: string; why: string },
): Promise<BreakGlassOutcome> {
  if (!CONSOLE_USERNAME_PATTERN.test(input.username)) return { kind: 'bad-username' };
  const secret = newEnrollmentSecret();
  const digest = enrollmentDigest(secret);
  const fingerprint = enrollmentFingerprint(digest);
  return deps.db.$transaction(async (tx) => {
    await lockApproverChanges(tx);
    const enrolledApprovers = await countEnrolledApprovers(tx);
    if (enrolledApprovers > 0) return { kind: 'approvers-left', enrolledApprovers } as const;
    await openEnrollment(tx, {
      username: input.username,
      digest,
      fingerprint,
      expiresAt: new Date(Date.now() + ENROLLMENT_TTL_MS),
    });
    const existing = await findConsoleUser(tx, input.username);
    if (existing) {
      await setConsoleRole(tx, input.username, 'APPROVER');
      await awaitReenrollment(tx, input.username, digest);
      await tx.consoleUser.update({ where: { id: existing.id }, data: { disabledAt: null } });
    } else {
      try {
        await createConsoleUser(tx, { username: input.username, role: 'APPROVER', enrollmentDigest: digest });
      } catch (error) {
        if (error instanceof ConsoleUsernameTakenError) {
          throw new Error(`${input.username} appeared meanwhile`, { cause: error });
        }
        throw error;
      }
    }
    await tx.consoleSetup.upsert({
      where: { id: true },
      create: { firstApprover: input.username },
      update: { completedAt: null },
    });
    await audit(tx, { actor: `break-glass:${input.runBy}`, reason: input.why }, 'break-glass.approver', {
      detail: { username: input.username, existed: existing !== null, fingerprint },
    });
    return { kind: 'made', username: input.username, secret, fingerprint } as const;
  });
}
