import { LRUCache } from 'lru-cache';
import { findCredentials, type MerchantCredentials, type PrismaClient } from '@payout/db';

const UNKNOWN_MID = Symbol('unknown MID');

/**
 * A merchant's credentials (status, limits, active token digests) by MID, cached briefly so the hot path
 * does not query PostgreSQL for every request. Concurrent misses for one MID share one query. Unknown MIDs
 * are cached too, so a flood of made-up MIDs cannot reach the database. A suspension or a revoked token
 * takes effect within `ttlMs`.
 */
export class CredentialStore {
  private readonly cache: LRUCache<string, MerchantCredentials | typeof UNKNOWN_MID>;

  constructor(db: PrismaClient, ttlMs: number, maxEntries = 50_000) {
    this.cache = new LRUCache({
      max: maxEntries,
      ttl: ttlMs,
      fetchMethod: async (mid) => (await findCredentials(db, mid)) ?? UNKNOWN_MID,
    });
  }

  async lookup(mid: string): Promise<MerchantCredentials | null> {
    const found = await this.cache.fetch(mid);
    return found === undefined || found === UNKNOWN_MID ? null : found;
  }

  /** Forget a MID at once (after an operator changes it in this process). */
  forget(mid: string): void {
    this.cache.delete(mid);
  }
}
