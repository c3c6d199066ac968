import {
  completeMerchantEnrollment,
  findMerchantEnrollment,
  findMerchantSecondFactor,
  findMerchantUserAwaitingEnrollment,
  findOfferedMerchantTotpSeed,
  merchantUserActor,
  offerMerchantTotpSeed,
  openMerchantEnrollment,
  recordMerchantAudit,
  replaceRecoveryCodes,
  type MerchantUserView,
  type PrismaClient,
  type PrismaClientOrTransaction,
} from '@payout/db';
import {
  ENROLLMENT_SECRET_PATTERN,
  ENROLLMENT_TTL_MS,
  enrollmentDigest,
  enrollmentFingerprint,
  merchantUserEmail,
  newEnrollmentSecret,
  recoveryCodeDigest,
} from '@payout/domain';
import { chooseSecrets, offeredSeed } from '../people/enrollment.js';
import { proveCode, type SecondFactorProof, type SecondFactorSettings } from '../people/second-factor.js';

/*
 * A merchant's person enrolls themselves on the dashboard (docs/dashboard.md, "Enrollment"), as the console's
 * people do (people/enrollment.ts, docs/operations.md "People and roles"), with the same secrets, fingerprints,
 * sealed seeds and recovery codes (packages/domain/src/enrollment.ts):
 * 1. they open an enrollment for their e-mail on their own device (/dashboard/enroll), whose secret stays in
 *    that browser's cookie; the page shows its fingerprint;
 * 2. they read the fingerprint to whoever adds them — their merchant's owner or admin on the team page, or,
 *    for the owner, staff through a four-eyes request — which binds their account to that enrollment;
 * 3. with the secret, they choose their password, set up their authenticator and get recovery codes once.
 */

export type OpenMerchantEnrollmentOutcome =
  | { kind: 'opened'; secret: string; fingerprint: string; expiresAt: Date }
  | { kind: 'bad-email' }
  | { kind: 'too-many' };

/**
 * Opens an enrollment for `email`, for whoever asks: it says nothing of whether the e-mail is anyone's, and is
 * worth nothing until someone allowed to binds an account to its fingerprint.
 */
export async function openMerchantUserEnrollment(
  deps: { db: PrismaClient },
  input: { email: string },
): Promise<OpenMerchantEnrollmentOutcome> {
  const email = merchantUserEmail(input.email);
  if (!email) return { kind: 'bad-email' };
  const secret = newEnrollmentSecret();
  const digest = enrollmentDigest(secret);
  const fingerprint = enrollmentFingerprint(digest);
  const expiresAt = new Date(Date.now() + ENROLLMENT_TTL_MS);
  const opened = await deps.db.$transaction((tx) =>
    openMerchantEnrollment(tx, { email, digest, fingerprint, expiresAt }),
  );
  if (!opened) return { kind: 'too-many' };
  return { kind: 'opened', secret, fingerprint, expiresAt };
}

export type MerchantEnrollmentStanding =
  | { kind: 'waiting'; email: string; fingerprint: string; expiresAt: Date }
  | { kind: 'ready'; user: MerchantUserView }
  | { kind: 'unknown' };

/** Where the enrollment of `secret` stands. */
export async function merchantEnrollmentStanding(
  deps: { db: PrismaClientOrTransaction },
  secret: string,
): Promise<MerchantEnrollmentStanding> {
  if (!ENROLLMENT_SECRET_PATTERN.test(secret)) return { kind: 'unknown' };
  const digest = enrollmentDigest(secret);
  const account = await findMerchantUserAwaitingEnrollment(deps.db, digest);
  if (account) return { kind: 'ready', user: account };
  const open = await findMerchantEnrollment(deps.db, digest);
  if (!open) return { kind: 'unknown' };
  return { kind: 'waiting', email: open.email, fingerprint: open.fingerprint, expiresAt: open.expiresAt };
}

export type OfferMerchantSecondFactorOutcome =
  { kind: 'seed'; email: string; seed: string; uri: string } | Exclude<MerchantEnrollmentStanding, { kind: 'ready' }>;

/**
 * Offers the person enrolling a TOTP seed, shown to the holder of the enrollment's secret only and sealed in
 * the database; the same seed again until a code from it comes back, so a reload undoes nothing.
 */
export async function offerMerchantSecondFactor(
  deps: { db: PrismaClient; secondFactor: SecondFactorSettings },
  secret: string,
): Promise<OfferMerchantSecondFactorOutcome> {
  const standing = await merchantEnrollmentStanding(deps, secret);
  if (standing.kind !== 'ready') return standing;
  const { id, email } = standing.user;
  const offered = await offeredSeed(deps.secondFactor, email, {
    find: () => findOfferedMerchantTotpSeed(deps.db, id),
    offer: (sealed) => offerMerchantTotpSeed(deps.db, id, sealed),
  });
  return { kind: 'seed', email, ...offered };
}

export type FinishMerchantEnrollmentOutcome =
  | { kind: 'enrolled'; user: MerchantUserView; recoveryCodes: string[] }
  | { kind: 'not-ready' }
  | { kind: 'bad-password'; problem: string }
  | { kind: 'bad-code' };

/**
 * Finishes an enrollment: the person's own password (hashed) and the seed they proved with a current code
 * become theirs, the enrollment is spent, and they get recovery codes, shown once.
 */
export async function finishMerchantEnrollment(
  deps: { db: PrismaClient; secondFactor: SecondFactorSettings },
  input: { secret: string; password: string; repeated: string; code: string },
): Promise<FinishMerchantEnrollmentOutcome> {
  const standing = await merchantEnrollmentStanding(deps, input.secret);
  if (standing.kind !== 'ready') return { kind: 'not-ready' };
  const { user } = standing;
  const chosen = await chooseSecrets(deps.secondFactor, await findOfferedMerchantTotpSeed(deps.db, user.id), input);
  if (chosen.kind !== 'chosen') return chosen;
  const { passwordHash, recoveryCodes, totpSealed, step } = chosen;
  const digest = enrollmentDigest(input.secret);
  return deps.db.$transaction(async (tx) => {
    const enrolled = await completeMerchantEnrollment(tx, {
      userId: user.id,
      digest,
      passwordHash,
      totpSealed,
      step,
    });
    if (!enrolled) return { kind: 'not-ready' } as const;
    await replaceRecoveryCodes(tx, user.id, recoveryCodes.map(recoveryCodeDigest), 'merchant');
    await recordMerchantAudit(tx, {
      merchantId: enrolled.merchantId,
      actor: merchantUserActor(enrolled),
      action: 'team.enroll',
      detail: { email: enrolled.email, role: enrolled.role },
    });
    return { kind: 'enrolled', user: enrolled, recoveryCodes } as const;
  });
}

/**
 * A merchant user's second factor on signing in: asked of every one of them, since each has one from their
 * enrollment (the console asks it of whoever has one, docs/operations.md "Second factor"). A wrong code goes to
 * their merchant's audit, for its admins to see.
 */
export async function proveMerchantSecondFactor(
  deps: { db: PrismaClientOrTransaction; secondFactor: SecondFactorSettings },
  user: Pick<MerchantUserView, 'id' | 'email' | 'merchantId'>,
  code: string | undefined,
): Promise<SecondFactorProof> {
  const proof = await proveCode(deps, 'merchant', await findMerchantSecondFactor(deps.db, user.email), code);
  if (proof.kind === 'wrong') {
    await recordMerchantAudit(deps.db, {
      merchantId: user.merchantId,
      actor: merchantUserActor(user),
      action: 'sign-in.code-refused',
      detail: { email: user.email },
    });
  }
  return proof;
}
