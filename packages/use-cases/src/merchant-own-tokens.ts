import {
  addOwnToken,
  lockActiveTokens,
  revokeToken as revokeStoredToken,
  type MerchantToken,
  type PrismaClient,
  type Transaction,
} from '@payout/db';
import { hashToken, MAX_ACTIVE_MERCHANT_TOKENS, newApiToken, tokenDisplayPrefix } from '@payout/domain';
import { audit } from './audit.js';

// A merchant's own token work through the merchant API (docs/api.md, "Token rotation"): the new token goes
// to the merchant that asked, authenticated by a token it already holds, and never passes through a person.

/** The merchant as authentication found it. */
export interface TokenHolder {
  merchantId: number;
  mid: string;
}

export type RotateOwnTokenOutcome =
  | { kind: 'rotated'; token: string; prefix: string }
  /** Named, so a merchant whose rotation answer was lost can tell which token it never received. */
  | { kind: 'at-limit'; activePrefixes: string[] };

/** The audit log names the merchant itself as the actor of its own token work. */
const byMerchant = (mid: string, reason: string) => ({ actor: `merchant:${mid}`, reason });

/**
 * A new token for the merchant, handed back once (only its digest is stored). The token it rotated with
 * keeps working until the merchant revokes it, so a fleet of clients can switch over without downtime; a
 * merchant holds at most {@link MAX_ACTIVE_MERCHANT_TOKENS} at once, so a leaked token cannot mint a
 * stock of others behind the merchant's back.
 */
export async function rotateOwnToken(deps: { db: PrismaClient }, holder: TokenHolder): Promise<RotateOwnTokenOutcome> {
  return addNewToken(deps, holder.merchantId, (tx, added) =>
    audit(tx, byMerchant(holder.mid, 'rotated through the merchant API'), 'token.rotate', {
      merchantId: holder.merchantId,
      detail: added,
    }),
  );
}

/**
 * A new token for the merchant within the limit of active tokens, with `record` writing its audit in the same
 * transaction (given only the new token's id and prefix, never the token): the merchant's rotation, and its
 * person's on the dashboard (merchant-user-access.ts).
 */
export async function addNewToken(
  deps: { db: PrismaClient },
  merchantId: number,
  record: (tx: Transaction, added: { tokenId: number; prefix: string }) => Promise<void>,
): Promise<RotateOwnTokenOutcome> {
  const token = newApiToken();
  const prefix = tokenDisplayPrefix(token);
  return deps.db.$transaction(async (tx) => {
    const added = await addOwnToken(tx, merchantId, { hash: hashToken(token), prefix }, MAX_ACTIVE_MERCHANT_TOKENS);
    if ('activePrefixes' in added) return { kind: 'at-limit', activePrefixes: added.activePrefixes } as const;
    await record(tx, { tokenId: added.added.id, prefix });
    return { kind: 'rotated', token, prefix } as const;
  });
}

export type RevokeOwnTokenOutcome =
  | { kind: 'revoked'; prefix: string }
  /** No active token of the merchant has that prefix. */
  | { kind: 'no-token' }
  /** The prefix names a token older than the one the request is authenticated by. */
  | { kind: 'older-token' }
  /** The prefix names the request's own token, and the merchant holds no other: it would be locked out. */
  | { kind: 'last-token' }
  /** The request's token was revoked while the request waited for the lock: it proves nothing any more. */
  | { kind: 'caller-revoked' };

/**
 * Revokes the merchant's active token with this display prefix, by the rule that keeps a merchant from being
 * locked out by a token it leaked (docs/api.md, "Token rotation"): a token revokes itself, while the merchant
 * holds another, or a token newer than itself — never an older one. So the merchant's oldest token can be
 * retired only by itself, and a token rotated from a leaked one cannot take the merchant's original away.
 * Under the lock every change of the merchant's tokens takes, the rule leaves at least one token whatever
 * runs beside it: two tokens revoking each other, or themselves, at once.
 */
export async function revokeOwnToken(
  deps: { db: PrismaClient },
  input: TokenHolder & { prefix: string; callerDigest: string },
): Promise<RevokeOwnTokenOutcome> {
  return deps.db.$transaction(async (tx) => {
    const active = (await lockActiveTokens(tx, input.merchantId)) ?? [];
    const verdict = revocationVerdict(active, input.callerDigest, input.prefix);
    if (verdict.kind !== 'allowed') return verdict;
    for (const token of verdict.named) {
      const revoked = await revokeStoredToken(tx, input.merchantId, token.id);
      if (!revoked) continue;
      await audit(tx, byMerchant(input.mid, 'revoked through the merchant API'), 'token.revoke', {
        merchantId: input.merchantId,
        detail: { tokenId: revoked.id, prefix: revoked.tokenPrefix },
      });
    }
    return { kind: 'revoked', prefix: input.prefix } as const;
  });
}

type RevocationVerdict =
  Exclude<RevokeOwnTokenOutcome, { kind: 'revoked' }> | { kind: 'allowed'; named: MerchantToken[] };

/** Whether the caller's token may revoke the tokens `prefix` names, among the merchant's active ones (oldest first). */
function revocationVerdict(active: readonly MerchantToken[], callerDigest: string, prefix: string): RevocationVerdict {
  const caller = active.find((t) => t.tokenHash === callerDigest);
  if (!caller) return { kind: 'caller-revoked' };
  const named = active.filter((t) => t.tokenPrefix === prefix);
  if (named.length === 0) return { kind: 'no-token' };
  // Ids rise with age: a token made later has a larger one.
  if (named.some((t) => t.id < caller.id)) return { kind: 'older-token' };
  if (active.every((t) => named.includes(t))) return { kind: 'last-token' };
  return { kind: 'allowed', named };
}
