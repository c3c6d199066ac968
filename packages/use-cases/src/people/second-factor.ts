import {
  findSecondFactor,
  recordOperatorAction,
  takeSecondFactorAttempt,
  useRecoveryCode,
  useTotpStep,
  type PeopleKind,
  type PrismaClientOrTransaction,
  type StoredSecondFactor,
} from '@payout/db';
import {
  looksLikeRecoveryCode,
  openSeed,
  recoveryCodeDigest,
  totpStepProved,
  type ConsoleRole,
  type SealingKeys,
} from '@payout/domain';

/** How a person's second factor is kept and when it is asked for (docs/operations.md, "Second factor"). */
export interface SecondFactorSettings {
  /** SECOND_FACTOR_KEY (and SECOND_FACTOR_PREVIOUS_KEYS while rotating): seeds are sealed under it. */
  keys: SealingKeys;
  /** The name authenticator apps show beside the account. */
  issuer: string;
  /** Every console and CLI sign-in asks for a code (production); an approver's always does. */
  everySignIn: boolean;
}

/** Wrong codes a person may type within {@link FAILURE_WINDOW_MS} before every code of theirs waits. */
export const MAX_SECOND_FACTOR_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60 * 1000;

/** Whether signing in as a person of `role` needs their second factor. */
export function signInNeedsSecondFactor(settings: SecondFactorSettings, role: ConsoleRole): boolean {
  return settings.everySignIn || role === 'APPROVER';
}

export type SecondFactorProof =
  | { kind: 'proved'; via: 'totp' | 'recovery-code' }
  /** No code was given where one is needed. */
  | { kind: 'missing' }
  /** They have no second factor: they must enroll again (a reset) before doing this. */
  | { kind: 'none' }
  /** Wrong, or a code already used. */
  | { kind: 'wrong' }
  /** Too many wrong codes lately: every code waits. */
  | { kind: 'locked'; waitSeconds: number };

/**
 * Checks a person's second factor: a TOTP code from their authenticator (once each: a used step is
 * refused), or one of their recovery codes (once each). Every attempt is counted before it is checked, and
 * past {@link MAX_SECOND_FACTOR_FAILURES} without a success within {@link FAILURE_WINDOW_MS} every code waits —
 * even the right one — so six digits cannot be guessed. Each refusal goes to the audit log.
 */
export async function proveSecondFactor(
  deps: { db: PrismaClientOrTransaction; secondFactor: SecondFactorSettings },
  input: { username: string; code: string | undefined; actor: string; purpose: string },
): Promise<SecondFactorProof> {
  const stored = await findSecondFactor(deps.db, input.username);
  const proof = await proveCode(deps, 'console', stored, input.code);
  if (proof.kind === 'wrong') {
    await recordOperatorAction(deps.db, {
      actor: input.actor,
      action: 'second-factor.refused',
      reason: `a wrong or used code for ${input.purpose}`,
      detail: { username: input.username },
    });
  }
  return proof;
}

/**
 * Checks a code against a stored second factor, of the console's people or a merchant's (the dashboard asks
 * the same of its people, docs/dashboard.md "Sessions"): the counting, the single use of each step and each
 * recovery code, and the wait after too many wrong codes are the same for both; who audits a refusal is the
 * caller's.
 */
export async function proveCode(
  deps: { db: PrismaClientOrTransaction; secondFactor: SecondFactorSettings },
  people: PeopleKind,
  stored: StoredSecondFactor | null,
  input: string | undefined,
): Promise<SecondFactorProof> {
  if (!stored?.totpSealed) return { kind: 'none' };
  const code = input?.trim();
  if (!code) return { kind: 'missing' };
  const limit = { max: MAX_SECOND_FACTOR_FAILURES, windowMs: FAILURE_WINDOW_MS };
  if (!(await takeSecondFactorAttempt(deps.db, people, stored.userId, limit))) {
    const since = stored.failedAt?.getTime() ?? Date.now();
    return { kind: 'locked', waitSeconds: Math.max(1, Math.ceil((since + FAILURE_WINDOW_MS - Date.now()) / 1000)) };
  }
  if (looksLikeRecoveryCode(code)) {
    if (await useRecoveryCode(deps.db, people, stored.userId, recoveryCodeDigest(code))) {
      return { kind: 'proved', via: 'recovery-code' };
    }
  } else {
    const seed = openSeed(stored.totpSealed, deps.secondFactor.keys);
    if (seed === null)
      throw new Error(`the second factor of ${people} user ${stored.userId} is sealed under no configured key`);
    const step = totpStepProved(seed, code, new Date(), stored.totpLastStep);
    if (step !== null && (await useTotpStep(deps.db, people, stored.userId, step))) {
      return { kind: 'proved', via: 'totp' };
    }
  }
  return { kind: 'wrong' };
}

/** What a refused second factor tells the person (never which part was wrong). */
export function secondFactorRefusal(proof: Exclude<SecondFactorProof, { kind: 'proved' }>): string {
  switch (proof.kind) {
    case 'missing':
      return 'Enter the current code from your authenticator app (or one of your recovery codes).';
    case 'none':
      return 'You have no second factor: ask for a reset and enroll again (docs/operations.md, "People and roles").';
    case 'wrong':
      return 'That code is wrong or was used already: wait for the next code from your authenticator app.';
    case 'locked':
      return `Too many wrong codes: try again in ${Math.ceil(proof.waitSeconds / 60)} min.`;
  }
}
