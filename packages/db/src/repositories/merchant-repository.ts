import { Prisma } from '../generated/prisma/client.js';
import type { Merchant, MerchantToken } from '../generated/prisma/client.js';
import { sql, sqlRows, type PrismaClientOrTransaction } from '../client.js';

export type { Merchant, MerchantToken };

export class MidTakenError extends Error {
  override readonly name = 'MidTakenError';
  constructor(readonly mid: string) {
    super(`MID ${mid} is already taken`);
  }
}

export interface NewMerchant {
  mid: string;
  name: string;
  firstTokenHash: string;
  firstTokenPrefix: string;
  impsMaxPaise?: bigint;
  upiMaxPaise?: bigint;
}

/** Creates a merchant together with its first token (stored hashed). */
export async function createMerchant(db: PrismaClientOrTransaction, input: NewMerchant): Promise<Merchant> {
  try {
    return await db.merchant.create({
      data: {
        mid: input.mid,
        name: input.name,
        ...(input.impsMaxPaise !== undefined && { impsMaxPaise: input.impsMaxPaise }),
        ...(input.upiMaxPaise !== undefined && { upiMaxPaise: input.upiMaxPaise }),
        tokens: { create: { tokenHash: input.firstTokenHash, tokenPrefix: input.firstTokenPrefix } },
      },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new MidTakenError(input.mid);
    }
    throw error;
  }
}

export function findMerchantByMid(db: PrismaClientOrTransaction, mid: string): Promise<Merchant | null> {
  return db.merchant.findUnique({ where: { mid } });
}

/** Suspends or re-activates a merchant; returns null when the MID is unknown. */
export async function setMerchantStatus(
  db: PrismaClientOrTransaction,
  mid: string,
  status: Merchant['status'],
): Promise<Merchant | null> {
  const { count } = await db.merchant.updateMany({ where: { mid }, data: { status } });
  return count ? findMerchantByMid(db, mid) : null;
}

/**
 * Whether a token with this digest was ever registered, for any merchant (revoked ones included): a digest
 * names one token, so a merchant making a token registers a new one each time.
 */
export async function tokenDigestTaken(db: PrismaClientOrTransaction, tokenHash: string): Promise<boolean> {
  return (await db.merchantToken.count({ where: { tokenHash } })) > 0;
}

/**
 * Locks the merchant's row and reads its active tokens, oldest first; null when the merchant is gone. Every
 * change to a merchant's set of tokens takes this lock first, so two changes at once see each other's
 * result: two tokens revoking each other, or a rotation beside a revocation, can never leave the merchant
 * with a token count that no single change allows (docs/api.md, "Token rotation").
 */
export async function lockActiveTokens(
  tx: Prisma.TransactionClient,
  merchantId: number,
): Promise<MerchantToken[] | null> {
  const locked = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM merchants WHERE id = ${merchantId} FOR UPDATE`;
  if (locked.length === 0) return null;
  return tx.merchantToken.findMany({ where: { merchantId, revokedAt: null }, orderBy: { id: 'asc' } });
}

/** Adds a token to a merchant; its other tokens keep working until revoked. */
export function addToken(
  db: PrismaClientOrTransaction,
  merchantId: number,
  tokenHash: string,
  tokenPrefix: string,
): Promise<MerchantToken> {
  return db.merchantToken.create({ data: { merchantId, tokenHash, tokenPrefix } });
}

export function listTokens(db: PrismaClientOrTransaction, merchantId: number): Promise<MerchantToken[]> {
  return db.merchantToken.findMany({ where: { merchantId }, orderBy: { id: 'asc' } });
}

/** Revokes one of a merchant's tokens; returns null when no such active token exists. */
export async function revokeToken(
  db: PrismaClientOrTransaction,
  merchantId: number,
  tokenId: number,
): Promise<MerchantToken | null> {
  const { count } = await db.merchantToken.updateMany({
    where: { id: tokenId, merchantId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count ? db.merchantToken.findUnique({ where: { id: tokenId } }) : null;
}

/**
 * Adds a token the merchant asked for itself, unless it already holds `maxActive` active tokens: the
 * merchant's row is locked first, so two rotations at once cannot both pass the count (docs/api.md,
 * "Token rotation"). Returns the new row, or at the limit the prefixes of the active tokens.
 */
export async function addOwnToken(
  tx: Prisma.TransactionClient,
  merchantId: number,
  token: { hash: string; prefix: string },
  maxActive: number,
): Promise<{ added: MerchantToken } | { activePrefixes: string[] }> {
  const active = (await lockActiveTokens(tx, merchantId)) ?? [];
  if (active.length >= maxActive) return { activePrefixes: active.map((t) => t.tokenPrefix) };
  return { added: await addToken(tx, merchantId, token.hash, token.prefix) };
}

/** Replaces a merchant's IP allow-list; returns the list it had, or null when the merchant is gone. */
export async function setIpAllowlist(
  tx: Prisma.TransactionClient,
  merchantId: number,
  cidrs: string[],
): Promise<string[] | null> {
  const before = await tx.$queryRaw<{ ip_allowlist: string[] }[]>`
    SELECT ip_allowlist FROM merchants WHERE id = ${merchantId} FOR UPDATE`;
  if (before.length === 0) return null;
  await tx.merchant.update({ where: { id: merchantId }, data: { ipAllowlist: cidrs } });
  return before[0]!.ip_allowlist;
}

/**
 * Records that a token was just used, for the console's "last used" column: at most one write a minute
 * per token, whatever the request rate (the condition makes a concurrent or early write a no-op). Over pg
 * like the rest of authentication: an API that serves only the hot path never starts Prisma's query
 * compiler (about 50 MB of memory, docs/performance.md "Memory").
 */
export async function recordTokenUse(db: PrismaClientOrTransaction, tokenHash: string): Promise<void> {
  await sqlRows(
    db,
    sql`UPDATE merchant_tokens SET last_used_at = now()
         WHERE token_hash = ${tokenHash} AND revoked_at IS NULL
           AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
  );
}

export interface MerchantCredentials {
  merchant: Pick<Merchant, 'id' | 'mid' | 'status' | 'impsMaxPaise' | 'upiMaxPaise'>;
  activeTokenHashes: string[];
  /** CIDRs the tokens work from; empty for anywhere (docs/api.md, "IP allow-list"). */
  ipAllowlist: string[];
}

/**
 * What authentication needs for a MID: the merchant and the digests of its active tokens, in one statement.
 */
export async function findCredentials(db: PrismaClientOrTransaction, mid: string): Promise<MerchantCredentials | null> {
  return (await findCredentialsOfMids(db, [mid])).get(mid) ?? null;
}

/**
 * {@link findCredentials} for many MIDs in one statement, by MID; a MID with no merchant is absent. The
 * credential cache refreshes every merchant every few seconds, so over 1,000 merchants one statement per
 * MID was more statements than the accepts themselves (docs/performance.md, "Credentials: cache, refresh and gate").
 */
export async function findCredentialsOfMids(
  db: PrismaClientOrTransaction,
  mids: readonly string[],
): Promise<Map<string, MerchantCredentials>> {
  const rows = await sqlRows<CredentialsRow>(
    db,
    sql`SELECT m.id, m.mid, m.status::text AS status, m.imps_max_paise, m.upi_max_paise, m.ip_allowlist,
               coalesce(array_agg(t.token_hash::text) FILTER (WHERE t.token_hash IS NOT NULL), '{}') AS token_hashes
          FROM merchants m
          LEFT JOIN merchant_tokens t ON t.merchant_id = m.id AND t.revoked_at IS NULL
         WHERE m.mid = ANY(${mids}::text[])
         GROUP BY m.id`,
  );
  return new Map(
    rows.map((row) => [
      row.mid,
      {
        merchant: {
          id: row.id,
          mid: row.mid,
          status: row.status,
          impsMaxPaise: row.imps_max_paise,
          upiMaxPaise: row.upi_max_paise,
        },
        activeTokenHashes: row.token_hashes,
        ipAllowlist: row.ip_allowlist,
      },
    ]),
  );
}

interface CredentialsRow {
  id: number;
  mid: string;
  status: Merchant['status'];
  imps_max_paise: bigint;
  upi_max_paise: bigint;
  token_hashes: string[];
  ip_allowlist: string[];
}
