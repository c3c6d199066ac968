import { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';

/**
 * Whose second factor: the staff console's people (console_users) or a merchant's own people on the dashboard
 * (merchant_users, docs/dashboard.md "Sessions"). Both keep it in the same columns, so one set of statements
 * serves both, each against its own tables.
 */
export type PeopleKind = 'console' | 'merchant';

const PEOPLE_TABLE: Record<PeopleKind, Prisma.Sql> = {
  console: Prisma.raw('console_users'),
  merchant: Prisma.raw('merchant_users'),
};
const RECOVERY_CODE_TABLE: Record<PeopleKind, Prisma.Sql> = {
  console: Prisma.raw('console_recovery_codes'),
  merchant: Prisma.raw('merchant_user_recovery_codes'),
};

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

const SECOND_FACTOR_COLUMNS = {
  id: true,
  totpSealed: true,
  totpLastStep: true,
  secondFactorFailures: true,
  secondFactorFailedAt: true,
} as const;

export async function findSecondFactor(
  db: PrismaClientOrTransaction,
  username: string,
): Promise<StoredSecondFactor | null> {
  return storedSecondFactor(await db.consoleUser.findUnique({ where: { username }, select: SECOND_FACTOR_COLUMNS }));
}

/** A merchant user's second factor, by their e-mail address. */
export async function findMerchantSecondFactor(
  db: PrismaClientOrTransaction,
  email: string,
): Promise<StoredSecondFactor | null> {
  return storedSecondFactor(await db.merchantUser.findUnique({ where: { email }, select: SECOND_FACTOR_COLUMNS }));
}

function storedSecondFactor(
  row: {
    id: number;
    totpSealed: string | null;
    totpLastStep: bigint | null;
    secondFactorFailures: number;
    secondFactorFailedAt: Date | null;
  } | null,
): StoredSecondFactor | null {
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
export async function useTotpStep(
  db: PrismaClientOrTransaction,
  people: PeopleKind,
  userId: number,
  step: number,
): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE ${PEOPLE_TABLE[people]} SET totp_last_step = ${BigInt(step)}, second_factor_failures = 0, second_factor_failed_at = NULL
     WHERE id = ${userId} AND (totp_last_step IS NULL OR totp_last_step < ${BigInt(step)})`;
  return count === 1;
}

/** Marks a recovery code used; false when it is not one of theirs or was used already. */
export async function useRecoveryCode(
  db: PrismaClientOrTransaction,
  people: PeopleKind,
  userId: number,
  digest: string,
): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE ${RECOVERY_CODE_TABLE[people]} SET used_at = now()
     WHERE user_id = ${userId} AND digest = ${digest} AND used_at IS NULL`;
  if (count === 1) {
    await db.$executeRaw`
      UPDATE ${PEOPLE_TABLE[people]} SET second_factor_failures = 0, second_factor_failed_at = NULL
       WHERE id = ${userId}`;
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
  people: PeopleKind,
  userId: number,
  input: { max: number; windowMs: number },
): Promise<boolean> {
  const window = input.windowMs / 1000;
  const count = await db.$executeRaw`
    UPDATE ${PEOPLE_TABLE[people]}
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
  people: PeopleKind = 'console',
): Promise<void> {
  const data = digests.map((digest) => ({ userId, digest }));
  if (people === 'merchant') {
    await db.merchantUserRecoveryCode.deleteMany({ where: { userId } });
    await db.merchantUserRecoveryCode.createMany({ data });
    return;
  }
  await db.consoleRecoveryCode.deleteMany({ where: { userId } });
  await db.consoleRecoveryCode.createMany({ data });
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
