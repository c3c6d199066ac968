import type { Request } from 'express';
import { findConsoleUserForSignIn, type ConsoleUserView, type PrismaClient } from '@payout/db';
import { verifyPassword } from '@payout/domain';
import { clientKey } from '../../auth/auth-failure-limit.js';
import type { SignInLimiter } from './sign-in-limiter.js';

// Checked against when the username is unknown, so a wrong username takes as long as a wrong password.
const DECOY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export type PasswordCheck =
  /** Too many failures for this name from this address, or from this address at all. */
  | { kind: 'blocked'; waitSeconds: number }
  /** As many password hashes are computing as this process allows: try again in a moment. */
  | { kind: 'busy' }
  | { kind: 'wrong' }
  | { kind: 'right'; user: ConsoleUserView };

/**
 * A person's password checked as every door that takes one checks it (the console's sign-in, the CLI's
 * POST /admin/sign-in, a first password change): through the sign-in limiter per name and address
 * (docs/operations.md, "Support console"), one scrypt hash within the process's cap, a decoy hash for an
 * unknown name, and a disabled person refused like a wrong password.
 */
export async function checkPassword(
  deps: { db: PrismaClient; signIn: SignInLimiter },
  req: Request,
  username: string,
  password: string,
): Promise<PasswordCheck> {
  const address = clientKey(req);
  const waitSeconds = await deps.signIn.blockedFor(username, address);
  if (waitSeconds > 0) return { kind: 'blocked', waitSeconds };
  // The password hash is the costly part: when as many are computing as this process allows, the answer
  // is an immediate refusal rather than a queue of hashes competing with the merchant API for its CPU.
  const checking = deps.signIn.withHashingSlot(async () => {
    const found = await findConsoleUserForSignIn(deps.db, username);
    return { found, matches: await verifyPassword(password, found?.passwordHash ?? DECOY_HASH) };
  });
  if (!checking) {
    req.log.warn('sign-in refused: password checks at their limit');
    return { kind: 'busy' };
  }
  const { found, matches } = await checking;
  if (!found || !matches || found.disabledAt) {
    await deps.signIn.failed(username, address);
    return { kind: 'wrong' };
  }
  await deps.signIn.succeeded(username, address);
  const { passwordHash: _hash, ...user } = found;
  return { kind: 'right', user };
}
