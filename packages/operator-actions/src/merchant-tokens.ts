import {
  addToken,
  findMerchantByMid,
  revokeToken as revokeStoredToken,
  type MerchantToken,
  type PrismaClient,
} from '@payout/db';
import { hashToken, newApiToken, tokenDisplayPrefix } from '@payout/domain';
import { audit } from './audit.js';

export type RotateTokenOutcome = { kind: 'issued'; row: MerchantToken; token: string } | { kind: 'no-merchant' };

/**
 * Issues an additional token (the old ones keep working until revoked, so rotation needs no downtime).
 * The token itself is returned once, to be handed to the merchant; only its digest is stored.
 */
export async function rotateToken(
  deps: { db: PrismaClient },
  input: { mid: string; actor: string; reason: string },
): Promise<RotateTokenOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  const token = newApiToken();
  const created = await deps.db.$transaction(async (tx) => {
    const row = await addToken(tx, merchant.id, hashToken(token), tokenDisplayPrefix(token));
    await audit(tx, input, 'token.rotate', {
      merchantId: merchant.id,
      detail: { tokenId: row.id, prefix: row.tokenPrefix },
    });
    return row;
  });
  return { kind: 'issued', row: created, token };
}

export type RevokeTokenOutcome =
  { kind: 'revoked'; row: MerchantToken } | { kind: 'no-merchant' } | { kind: 'no-token' };

/** Revokes one active token of the merchant; takes effect within AUTH_CACHE_TTL_MS on every API process. */
export async function revokeToken(
  deps: { db: PrismaClient },
  input: { mid: string; tokenId: number; actor: string; reason: string },
): Promise<RevokeTokenOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  return deps.db.$transaction(async (tx) => {
    const revoked = await revokeStoredToken(tx, merchant.id, input.tokenId);
    if (!revoked) return { kind: 'no-token' } as const;
    await audit(tx, input, 'token.revoke', {
      merchantId: merchant.id,
      detail: { tokenId: revoked.id, prefix: revoked.tokenPrefix },
    });
    return { kind: 'revoked', row: revoked } as const;
  });
}
