import { LRUCache } from 'lru-cache';
import { findCredentials, type MerchantCredentials, type PrismaClient } from '@payout/db';

const UNKNOWN_MID = Symbol('unknown MID');
type Entry = { credentials: MerchantCredentials | typeof UNKNOWN_MID; fetchedAt: number };

// A token that does not match cached credentials may be one issued moments ago; the database is asked
// again, but at most this often per MID, so guessing tokens cannot turn into a flood of queries.
const RECHECK_AFTER_MS = 1_000;

/**
 * A merchant's credentials (status, limits, active token digests) by MID, cached briefly so the hot path
 * does not query PostgreSQL for every request. Concurrent misses for one MID share one query. Unknown MIDs
 * are cached too, so a flood of made-up MIDs cannot reach the database. A suspension or a revoked token
 * takes effect within `ttlMs`; a newly issued token works at once.
 */
export class CredentialStore {
  private readonly cache: LRUCache<string, Entry>;

  constructor(
    db: PrismaClient,
    ttlMs: number,
    maxEntries = 50_000,
    private readonly now: () => number = Date.now,
  ) {
    this.cache = new LRUCache({
      max: maxEntries,
      ttl: ttlMs,
      fetchMethod: async (mid) => ({
        credentials: (await findCredentials(db, mid)) ?? UNKNOWN_MID,
        fetchedAt: this.now(),
      }),
    });
  }

  /** The credentials of `mid`, or null if there is no such merchant. */
  async lookup(mid: string): Promise<MerchantCredentials | null> {
    return unwrap(await this.cache.fetch(mid));
  }

  /**
   * The credentials of `mid` re-read from the database if the cached copy is older than a second: for a
   * token the cached copy does not know.
   */
  async recheck(mid: string): Promise<MerchantCredentials | null> {
    const cached = this.cache.get(mid);
    if (cached && this.now() - cached.fetchedAt < RECHECK_AFTER_MS) return unwrap(cached);
    return unwrap(await this.cache.fetch(mid, { forceRefresh: true }));
  }

  /** Forget a MID at once (after an operator changes it in this process). */
  forget(mid: string): void {
    this.cache.delete(mid);
  }
}

function unwrap(entry: Entry | undefined): MerchantCredentials | null {
  return entry === undefined || entry.credentials === UNKNOWN_MID ? null : entry.credentials;
}
