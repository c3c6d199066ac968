import {
  completeEnrollment,
  completeSetupIfReady,
  findAccountAwaitingEnrollment,
  findEnrollment,
  findOfferedTotpSeed,
  lockApproverChanges,
  offerTotpSeed,
  openEnrollment,
  replaceRecoveryCodes,
  type ConsoleUserView,
  type PrismaClient,
} from '@payout/db';
import {
  chosenPasswordProblem,
  CONSOLE_USERNAME_PATTERN,
  ENROLLMENT_SECRET_PATTERN,
  ENROLLMENT_TTL_MS,
  enrollmentDigest,
  enrollmentFingerprint,
  hashPassword,
  newEnrollmentSecret,
  newRecoveryCodes,
  newTotpSeed,
  openSeed,
  recoveryCodeDigest,
  sealSeed,
  totpStepProved,
  totpUri,
} from '@payout/domain';
import { audit } from '../audit.js';
import type { SecondFactorSettings } from './second-factor.js';

/*
 * A person enrolls themselves (docs/operations.md, "People and roles"):
 * 1. they open an enrollment on their own device — /console/enroll or `pnpm cli enroll` — which keeps its
 *    secret there and shows them a fingerprint;
 * 2. they read the fingerprint to whoever asks for them, who puts it in the request (add, or reset), and the
 *    approver checks it with them before approving: the approval binds the account to that enrollment;
 * 3. with the secret, they choose their password and set up their authenticator, proving it with a code, and
 *    are shown their recovery codes once.
 * Nobody but them ever holds their secret, password, seed or codes.
 */

export type OpenEnrollmentOutcome =
  | { kind: 'opened'; secret: string; fingerprint: string; expiresAt: Date }
  | { kind: 'bad-username' }
  /** The name has as many open enrollments as allowed: wait for them to expire, or use one of them. */
  | { kind: 'too-many' };

/**
 * Opens an enrollment for `username`, for whoever asks: it says nothing of whether the name exists, and is
 * worth nothing until a request naming its fingerprint is approved.
 */
export async function openOwnEnrollment(
  deps: { db: PrismaClient },
  input: { username: string },
): Promise<OpenEnrollmentOutcome> {
  if (!CONSOLE_USERNAME_PATTERN.test(input.username)) return { kind: 'bad-username' };
  const secret = newEnrollmentSecret();
  const digest = enrollmentDigest(secret);
  const fingerprint = enrollmentFingerprint(digest);
  const expiresAt = new Date(Date.now() + ENROLLMENT_TTL_MS);
  const opened = await deps.db.$transaction(async (tx) => {
    const stored = await openEnrollment(tx, { username: input.username, digest, fingerprint, expiresAt });
    if (stored) {
      await audit(
        tx,
        { actor: `enrollment:${input.username}`, reason: 'opened an enrollment' },
        'user.enrollment-open',
        {
          detail: { username: input.username, fingerprint, expiresAt: expiresAt.toISOString() },
        },
      );
    }
    return stored;
  });
  if (!opened) return { kind: 'too-many' };
  return { kind: 'opened', secret, fingerprint, expiresAt };
}

export type EnrollmentStanding =
  /** Opened, and no approved request names it yet. */
  | { kind: 'waiting'; username: string; fingerprint: string; expiresAt: Date }
  /** An approval bound an account to it: its person may set their password and second factor now. */
  | { kind: 'ready'; user: ConsoleUserView }
  /** Unknown, expired or spent. */
  | { kind: 'unknown' };

/** Where the enrollment of `secret` stands. */
export async function enrollmentStanding(deps: { db: PrismaClient }, secret: string): Promise<EnrollmentStanding> {
  if (!ENROLLMENT_SECRET_PATTERN.test(secret)) return { kind: 'unknown' };
  const digest = enrollmentDigest(secret);
  const account = await findAccountAwaitingEnrollment(deps.db, digest);
  if (account) return { kind: 'ready', user: account };
  const open = await findEnrollment(deps.db, digest);
  if (!open) return { kind: 'unknown' };
  return { kind: 'waiting', username: open.username, fingerprint: open.fingerprint, expiresAt: open.expiresAt };
}

export type BeginEnrollmentOutcome =
  { kind: 'seed'; username: string; seed: string; uri: string } | Exclude<EnrollmentStanding, { kind: 'ready' }>;

/**
 * Offers the person enrolling a TOTP seed, to add to their authenticator app: shown to the holder of the
 * enrollment's secret only, sealed in the database, and theirs once they type a code from it back. The same
 * seed is offered again until then, so reloading the page does not undo what their app already holds.
 */
export async function offerSecondFactor(
  deps: { db: PrismaClient; secondFactor: SecondFactorSettings },
  secret: string,
): Promise<BeginEnrollmentOutcome> {
  const standing = await enrollmentStanding(deps, secret);
  if (standing.kind !== 'ready') return standing;
  const { id, username } = standing.user;
  const offered = await offeredSeed(deps.secondFactor, username, {
    find: () => findOfferedTotpSeed(deps.db, id),
    offer: (sealed) => offerTotpSeed(deps.db, id, sealed),
  });
  return { kind: 'seed', username, ...offered };
}

/**
 * The TOTP seed offered to a person enrolling — the console's or a merchant's (docs/dashboard.md,
 * "Enrollment") — and its authenticator link: the one already offered (sealed in `stored`) while it opens, or
 * a new one, sealed and stored now. The same seed until a code from it comes back, so a reload undoes
 * nothing their app already holds.
 */
export async function offeredSeed(
  settings: SecondFactorSettings,
  account: string,
  stored: { find(): Promise<string | null>; offer(sealed: string): Promise<void> },
): Promise<{ seed: string; uri: string }> {
  const sealed = await stored.find();
  let seed = sealed && openSeed(sealed, settings.keys);
  if (!seed) {
    seed = newTotpSeed();
    await stored.offer(sealSeed(seed, settings.keys));
  }
  return { seed, uri: totpUri(seed, account, settings.issuer) };
}

export type FinishEnrollmentOutcome =
  | { kind: 'enrolled'; user: ConsoleUserView; recoveryCodes: string[]; setupComplete: boolean }
  | { kind: 'not-ready' }
  | { kind: 'bad-password'; problem: string }
  /** No seed was offered yet, or the code does not prove the one offered. */
  | { kind: 'bad-code' };

export type ChosenSecrets =
  | { kind: 'chosen'; passwordHash: string; totpSealed: string; step: number; recoveryCodes: string[] }
  | { kind: 'bad-password'; problem: string }
  | { kind: 'bad-code' };

/**
 * What a person enrolling chose, checked — the console's or a merchant's: a password that passes the rules
 * (then hashed), a current code proving the seed offered to them (`offered`, sealed), and their new recovery
 * codes, to be shown once.
 */
export async function chooseSecrets(
  settings: SecondFactorSettings,
  offered: string | null,
  input: { password: string; repeated: string; code: string },
): Promise<ChosenSecrets> {
  const problem = chosenPasswordProblem(input.password, input.repeated);
  if (problem) return { kind: 'bad-password', problem };
  const seed = offered && openSeed(offered, settings.keys);
  const step = seed ? totpStepProved(seed, input.code, new Date(), null) : null;
  if (!offered || step === null) return { kind: 'bad-code' };
  return {
    kind: 'chosen',
    passwordHash: await hashPassword(input.password),
    totpSealed: offered,
    step,
    recoveryCodes: newRecoveryCodes(),
  };
}

/**
 * Finishes an enrollment: the person's own password (hashed) and the seed they proved with a current code
 * become theirs, the enrollment is spent, and they are given recovery codes, shown once. A second approver
 * enrolling ends an installation's setup.
 */
export async function finishEnrollment(
  deps: { db: PrismaClient; secondFactor: SecondFactorSettings },
  input: { secret: string; password: string; repeated: string; code: string },
): Promise<FinishEnrollmentOutcome> {
  const standing = await enrollmentStanding(deps, input.secret);
  if (standing.kind !== 'ready') return { kind: 'not-ready' };
  const { user } = standing;
  const chosen = await chooseSecrets(deps.secondFactor, await findOfferedTotpSeed(deps.db, user.id), input);
  if (chosen.kind !== 'chosen') return chosen;
  const { passwordHash, recoveryCodes, totpSealed: offered, step } = chosen;
  const digest = enrollmentDigest(input.secret);
  return deps.db.$transaction(async (tx) => {
    await lockApproverChanges(tx);
    const enrolled = await completeEnrollment(tx, { userId: user.id, digest, passwordHash, totpSealed: offered, step });
    if (!enrolled) return { kind: 'not-ready' } as const;
    await replaceRecoveryCodes(tx, user.id, recoveryCodes.map(recoveryCodeDigest));
    const by = { actor: `enrollment:${enrolled.username}`, reason: 'chose their own password and second factor' };
    await audit(tx, by, 'user.enroll', { detail: { username: enrolled.username, role: enrolled.role } });
    const setupComplete = await completeSetupIfReady(tx);
    if (setupComplete) {
      await audit(tx, by, 'setup.complete', {
        detail: { secondApprover: enrolled.username, note: 'two approvers have enrolled: four eyes from now on' },
      });
    }
    return { kind: 'enrolled', user: enrolled, recoveryCodes, setupComplete } as const;
  });
}
