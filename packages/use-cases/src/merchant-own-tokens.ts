import { addOwnToken, findActiveTokensByPrefix, revokeToken as revokeStoredToken, type PrismaClient } from '@payout/db';
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
  const token = newApiToken();
  const prefix = tokenDisplayPrefix(token);
  return deps.db.$transaction(async (tx) => {
    const added = await addOwnToken(
      tx,
      holder.merchantId,
      { hash: hashToken(token), prefix },
      MAX_ACTIVE_MERCHANT_TOKENS,
    );
    if ('activePrefixes' in added) return { kind: 'at-limit', activePrefixes: added.activePrefixes } as const;
    const row = added.added;
    await audit(tx, byMerchant(holder.mid, 'rotated through the merchant API'), 'token.rotate', {
      merchantId: holder.merchantId,
      detail: { tokenId: row.id, prefix },
    });
    return { kind: 'rotated', token, prefix } as const;
  });
}

export type RevokeOwnTokenOutcome =
  | { kind: 'revoked'; prefix: string }
  /** No active token of the merchant has that prefix. */
  | { kind: 'no-token' }
  /** The prefix names the very token the request is authenticated by. */
  | { kind: 'own-token' };

/**
 * Revokes the merchant's active token with this display prefix. The request must be authenticated by
 * another token: a merchant revoking the token in its hand would lock itself out, and a stolen token must
 * not be able to revoke the merchant's other one unnoticed while keeping itself.
 */
export async function revokeOwnToken(
  deps: { db: PrismaClient },
  input: TokenHolder & { prefix: string; callerDigest: string },
): Promise<RevokeOwnTokenOutcome> {
  return deps.db.$transaction(async (tx) => {
    const named = await findActiveTokensByPrefix(tx, input.merchantId, input.prefix);
    if (named.length === 0) return { kind: 'no-token' } as const;
    if (named.some((t) => t.tokenHash === input.callerDigest)) return { kind: 'own-token' } as const;
    for (const token of named) {
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
