import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';

/**
 * A person's second factor as stored (docs/operations.md, "Second factor"): the sealed TOTP seed, the last
 * step used (each code works once), the wrong codes in a row, and single-use recovery codes (digests only).
 */
export interface StoredSecondFactor {
  userId: number;
  totpSealed: string | null;
  totpLastStep: number | null;
  failures: number;
  failedAt: Date | null;
}

export async function findSecondFactor(
  db: PrismaClientOrTransaction,
  username: string,
): Promise<StoredSecondFactor | null> {
  const row = await db.consoleUser.findUnique({
    where: { username },
    select: {
      id: true,
      totpSealed: true,
      totpLastStep: true,
      secondFactorFailures: true,
      secondFactorFailedAt: true,
    },
  });
  return (
    row && {
      userId: row.id,
      totpSealed: row.totpSealed,
      totpLastStep: row.totpLastStep === null ? null : Number(row.totpLastStep),
      failures: row.secondFactorFailures,
      failedAt: row.secondFactorFailedAt,
    }
  );
}

/**
 * Records that a TOTP step was used, only if it is later than the last one: false when another request used
 * this step (or a later one) first, so the same code never works twice, even at the same instant.
 */
export async function useTotpStep(db: PrismaClientOrTransaction, userId: number, step: number): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE console_users SET totp_last_step = ${BigInt(step)}, second_factor_failures = 0, second_factor_failed_at = NULL
     WHERE id = ${userId} AND (totp_last_step IS NULL OR totp_last_step < ${BigInt(step)})`;
  return count === 1;
}

/** Marks a recovery code used; false when it is not one of theirs or was used already. */
export async function useRecoveryCode(db: PrismaClientOrTransaction, userId: number, digest: string): Promise<boolean> {
  const { count } = await db.consoleRecoveryCode.updateMany({
    where: { userId, digest, usedAt: null },
    data: { usedAt: new Date() },
  });
  if (count === 1) {
    await db.consoleUser.update({
      where: { id: userId },
      data: { secondFactorFailures: 0, secondFactorFailedAt: null },
    });
  }
  return count === 1;
}

/**
 * Takes one attempt at a code before it is checked, so a burst of guesses sent at once is counted as surely
 * as one after another: the count starts again when the last attempt is older than `windowMs`, and succeeding
 * clears it ({@link useTotpStep}, {@link useRecoveryCode}). False when `max` attempts in the window are used up.
 */
export async function takeSecondFactorAttempt(
  db: PrismaClientOrTransaction,
  userId: number,
  input: { max: number; windowMs: number },
): Promise<boolean> {
  const window = input.windowMs / 1000;
  const count = await db.$executeRaw`
    UPDATE console_users
       SET second_factor_failures = CASE
             WHEN second_factor_failed_at IS NULL
               OR second_factor_failed_at < now() - make_interval(secs => ${window}) THEN 1
             ELSE second_factor_failures + 1 END,
           second_factor_failed_at = now()
     WHERE id = ${userId}
       AND NOT (second_factor_failures >= ${input.max}
                AND second_factor_failed_at >= now() - make_interval(secs => ${window}))`;
  return count === 1;
}

/** Stores a person's new recovery codes (their digests), replacing any they had. */
export async function replaceRecoveryCodes(
  db: Prisma.TransactionClient,
  userId: number,
  digests: readonly string[],
): Promise<void> {
  await db.consoleRecoveryCode.deleteMany({ where: { userId } });
  await db.consoleRecoveryCode.createMany({ data: digests.map((digest) => ({ userId, digest })) });
}

/** How many unused recovery codes a person has left. */
export function countUnusedRecoveryCodes(db: PrismaClientOrTransaction, userId: number): Promise<number> {
  return db.consoleRecoveryCode.count({ where: { userId, usedAt: null } });
}

/** Every sealed seed, to seal again under a new key (`pnpm cli console second-factor reseal`). */
export function listSealedSeeds(db: PrismaClientOrTransaction) {
  return db.consoleUser.findMany({
    where: { OR: [{ totpSealed: { not: null } }, { totpPendingSealed: { not: null } }] },
    select: { id: true, totpSealed: true, totpPendingSealed: true },
  });
}

export async function storeResealedSeeds(
  db: PrismaClientOrTransaction,
  userId: number,
  sealed: { totpSealed: string | null; totpPendingSealed: string | null },
): Promise<void> {
  await db.consoleUser.update({ where: { id: userId }, data: sealed });
}
