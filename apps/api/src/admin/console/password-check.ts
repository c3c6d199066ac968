import type { Request } from 'express';
import {
  findConsoleUserForSignIn,
  recordOperatorAction,
  storePasswordHash,
  type ConsoleUserView,
  type PrismaClient,
} from '@payout/db';
import { DECOY_PASSWORD_HASH, hashPassword, needsRehash, verifyPassword } from '@payout/domain';
import {
  proveSecondFactor,
  secondFactorRefusal,
  signInNeedsSecondFactor,
  type SecondFactorSettings,
} from '@payout/use-cases';
import { clientKey } from '../../auth/auth-failure-limit.js';
import type { SignInLimiter } from './sign-in-limiter.js';

export type PasswordCheck =
  /** Too many failures for this name from this address, or from this address at all. */
  | { kind: 'blocked'; waitSeconds: number }
  /** As many password hashes are computing as this process allows: try again in a moment. */
  | { kind: 'busy' }
  | { kind: 'wrong' }
  | { kind: 'right'; user: ConsoleUserView };

export type SignInCheck =
  | Exclude<PasswordCheck, { kind: 'right' }>
  /** The password was right; the second factor was missing, wrong, or waits after too many wrong codes. */
  | { kind: 'second-factor'; why: string; waitSeconds?: number }
  | { kind: 'right'; user: ConsoleUserView };

/**
 * A person's password checked as every door that takes one checks it (the console's sign-in, the CLI's
 * POST /admin/sign-in): through the sign-in limiter per name and address (docs/operations.md, "Support
 * console"), one scrypt hash within the process's cap, a decoy hash for an unknown name or one that has not
 * enrolled, and a disabled person refused like a wrong password. A hash stored at an older cost is stored
 * again at today's once the password has proved right.
 */
export async function checkPassword(
  deps: { db: PrismaClient; signIn: SignInLimiter },
  req: Request,
  username: string,
  password: string,
): Promise<PasswordCheck> {
  const checked = await checkPasswordOf(deps.signIn, req, username, password, () =>
    findConsoleUserForSignIn(deps.db, username),
  );
  if (checked.kind !== 'right') return checked;
  const { passwordHash, ...user } = checked.user;
  if (needsRehash(passwordHash)) await storeAtTodaysCost(deps.db, user, password);
  return { kind: 'right', user };
}

/**
 * The limits, the hashing slot, the decoy and the answers of a password check, for whichever people it is
 * (the console's, or a merchant's on the dashboard, docs/dashboard.md "Sessions"): `find` looks the person up
 * by `name`. A person without a password, or disabled, is refused like a wrong password, in the same time.
 */
export async function checkPasswordOf<Person extends { passwordHash: string | null; disabledAt: Date | null }>(
  signIn: SignInLimiter,
  req: Request,
  name: string,
  password: string,
  find: () => Promise<Person | null>,
): Promise<Exclude<PasswordCheck, { kind: 'right' }> | { kind: 'right'; user: Person & { passwordHash: string } }> {
  const address = clientKey(req);
  const waitSeconds = await signIn.blockedFor(name, address);
  if (waitSeconds > 0) return { kind: 'blocked', waitSeconds };
  // The password hash is the costly part: when as many are computing as this process allows, the answer
  // is an immediate refusal rather than a queue of hashes competing with the merchant API for its CPU.
  const checking = signIn.withHashingSlot(async () => {
    const found = await find();
    return { found, matches: await verifyPassword(password, found?.passwordHash ?? DECOY_PASSWORD_HASH) };
  });
  if (!checking) {
    req.log.warn('sign-in refused: password checks at their limit');
    return { kind: 'busy' };
  }
  const { found, matches } = await checking;
  if (!found?.passwordHash || !matches || found.disabledAt) {
    await signIn.failed(name, address);
    return { kind: 'wrong' };
  }
  await signIn.succeeded(name, address);
  return { kind: 'right', user: found as Person & { passwordHash: string } };
}

async function storeAtTodaysCost(db: PrismaClient, user: ConsoleUserView, password: string): Promise<void> {
  await storePasswordHash(db, user.id, await hashPassword(password));
  await recordOperatorAction(db, {
    actor: `console:${user.username}`,
    action: 'user.password-rehash',
    reason: 'signed in with a password hashed at an older cost',
    detail: { username: user.username },
  });
}

/**
 * Signing in: the password ({@link checkPassword}), then the second factor — always for someone who has one
 * and for every approver, and for everyone in production (docs/operations.md, "Second factor").
 */
export async function checkSignIn(
  deps: { db: PrismaClient; signIn: SignInLimiter; secondFactor: SecondFactorSettings },
  req: Request,
  input: { username: string; password: string; code: string | undefined; actor: string },
): Promise<SignInCheck> {
  const checked = await checkPassword(deps, req, input.username, input.password);
  if (checked.kind !== 'right') return checked;
  const { user } = checked;
  if (!user.secondFactor && !signInNeedsSecondFactor(deps.secondFactor, user.role)) return checked;
  const proof = await proveSecondFactor(deps, {
    username: user.username,
    code: input.code,
    actor: input.actor,
    purpose: 'signing in',
  });
  if (proof.kind === 'proved') return checked;
  return {
    kind: 'second-factor',
    why: secondFactorRefusal(proof),
    ...(proof.kind === 'locked' && { waitSeconds: proof.waitSeconds }),
  };
}
