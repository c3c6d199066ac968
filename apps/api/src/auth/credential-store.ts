import { LRUCache } from 'lru-cache';
import { addressAllowed, digestMatchesAny } from '@payout/domain';
import { findCredentialsOfMids, recordTokenUse, type MerchantCredentials, type PrismaClient } from '@payout/db';
import { LookupGate, type LookupLane } from './lookup-gate.js';

interface KnownEntry {
  credentials: MerchantCredentials;
  fetchedAt: number;
  /** Age after which a lookup still answers from this entry but refreshes it in the background. */
  refreshAfterMs: number;
}

// A token that does not match cached credentials may be one issued moments ago; the database is asked
// again, but at most this often per MID, so guessing tokens cannot turn into a flood of queries.
const RECHECK_AFTER_MS = 1_000;
const TOKEN_USE_EVERY_MS = 60_000;
// Background refreshes are gathered this long and read together, at most this many MIDs per statement.
const REFRESH_GATHER_MS = 50;
const REFRESH_BATCH_MAX = 500;

export interface CredentialStoreOptions {
  /** How long credentials (and the absence of a merchant) are trusted before being read again. */
  ttlMs: number;
  /** Credential look-ups running in PostgreSQL at once. */
  maxInFlight?: number;
  /** Credential look-ups of MIDs already served that may run at once (at least `maxInFlight`; 4 × it by default). */
  maxKnownInFlight?: number;
  /** Look-ups of never-seen MIDs that may wait for a slot; beyond, 503. */
  maxWaiting?: number;
  /** Merchants whose credentials are kept. */
  maxKnown?: number;
  /** Unknown MIDs remembered as unknown. */
  maxUnknown?: number;
  /** Called when a look-up is refused because the gate is saturated. */
  onSaturated?: () => void;
  now?: () => number;
}

/**
 * A merchant's credentials (status, limits, active token digests) by MID, cached briefly so the hot path
 * does not query PostgreSQL for every request. A suspension or a revoked token takes effect within `ttlMs`;
 * a newly issued token works at once. A merchant that keeps sending never waits for its refresh: in the
 * second half of the TTL a lookup answers from the cache and re-reads the database in the background, so
 * requests wait for PostgreSQL only for a MID not seen within the TTL. Those background refreshes are
 * gathered for a few milliseconds and read in one statement: over 1,000 merchants, one statement per MID was
 * more statements than the accepts themselves, and every statement costs the API a socket write
 * (docs/performance.md, "Credentials: cache, refresh and gate").
 *
 * Built to stand a flood of made-up MIDs (docs/operations.md, "Floods before authentication"):
 * - unknown MIDs are remembered in a small cache of their own, so repeating one costs no query, and no
 *   number of them can push a real merchant's credentials out (the two caches never evict each other);
 * - concurrent look-ups of one MID share one query;
 * - look-ups go through a {@link LookupGate}: few at once, a real merchant's refresh ahead of any
 *   never-seen MID, and a bounded wait for those.
 */
export class CredentialStore {
  private readonly known: LRUCache<string, KnownEntry>;
  private readonly unknown: LRUCache<string, number>;
  private readonly pending = new Map<string, Promise<MerchantCredentials | null>>();
  /** MIDs whose entries are due for a background refresh, read together when `refreshTimer` fires. */
  private readonly dueForRefresh = new Set<string>();
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly gate: LookupGate;
  /** When each token's use was last written, so the hot path writes at most once a minute per token. */
  private readonly usesWritten = new LRUCache<string, number>({ max: 50_000 });
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: PrismaClient,
    options: CredentialStoreOptions,
  ) {
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
    this.known = new LRUCache({ max: options.maxKnown ?? 50_000 });
    this.unknown = new LRUCache({ max: options.maxUnknown ?? 10_000 });
    const maxInFlight = options.maxInFlight ?? 2;
    this.gate = new LookupGate(
      maxInFlight,
      options.maxWaiting ?? 200,
      options.onSaturated,
      options.maxKnownInFlight ?? 4 * maxInFlight,
    );
  }

  /** The credentials of `mid`, or null if there is no such merchant. */
  async lookup(mid: string): Promise<MerchantCredentials | null> {
    const known = this.known.get(mid);
    if (known && this.isFresh(known.fetchedAt)) {
      if (this.now() - known.fetchedAt >= known.refreshAfterMs) this.refreshInBackground(mid);
      return known.credentials;
    }
    const unknownAt = this.unknown.get(mid);
    if (unknownAt !== undefined && this.isFresh(unknownAt)) return null;
    return this.read(mid, known ? 'known' : 'unknown');
  }

  /**
   * The credentials of `mid` as this process last read them, however long ago, if the token with this digest
   * is one of its active tokens, used from an address its allow-list admits: a credential already known good,
   * which the address's failure allowance does not hold back (auth-failure-limit.ts). Only the cache is asked,
   * never PostgreSQL, and nothing is admitted on its word: the request is still authenticated by
   * {@link lookup}, which re-reads a stale entry (and answers with another object when it did).
   */
  vouchedCredentials(mid: string, digest: string, address: string | undefined): MerchantCredentials | undefined {
    const known = this.known.peek(mid);
    return known !== undefined &&
      digestMatchesAny(digest, known.credentials.activeTokenHashes) &&
      addressAllowed(known.credentials.ipAllowlist, address)
      ? known.credentials
      : undefined;
  }

  /**
   * The credentials of `mid` re-read from the database if the cached copy is older than a second: for a
   * token the cached copy does not know.
   */
  async recheck(mid: string): Promise<MerchantCredentials | null> {
    const cached = this.known.get(mid);
    if (cached && this.now() - cached.fetchedAt < RECHECK_AFTER_MS) return cached.credentials;
    return this.read(mid, cached ? 'known' : 'unknown');
  }

  /**
   * Notes that the token with this SHA-256 digest (hashToken) authenticated a request, for the console's "last used": written to PostgreSQL in the
   * background at most once a minute per token and process; a failed write is only a stale timestamp.
   */
  noteUse(digest: string): void {
    const now = this.now();
    if (now - (this.usesWritten.get(digest) ?? -Infinity) < TOKEN_USE_EVERY_MS) return;
    this.usesWritten.set(digest, now);
    recordTokenUse(this.db, digest).catch(() => this.usesWritten.delete(digest));
  }

  /** Resolves once every database read this store has started (background refreshes too) has finished. */
  async idle(): Promise<void> {
    if (this.refreshTimer) this.refreshDue();
    await Promise.allSettled([...this.pending.values()]);
  }

  /**
   * Forget a MID at once: after its credentials changed through this process (a merchant rotating or
   * revoking its own token). Other processes see the change within `ttlMs`, as for any revocation.
   */
  forget(mid: string): void {
    this.known.delete(mid);
    this.unknown.delete(mid);
  }

  // A failed refresh leaves the entry as it is: once it expires, the next lookup reads the database itself.
  private refreshInBackground(mid: string): void {
    if (this.pending.has(mid) || this.dueForRefresh.has(mid)) return;
    this.dueForRefresh.add(mid);
    if (!this.refreshTimer) {
      this.refreshTimer = setTimeout(() => this.refreshDue(), REFRESH_GATHER_MS);
      this.refreshTimer.unref();
    }
  }

  /** Reads the MIDs due for a refresh in one statement (the rest, beyond a batch, at the next turn). */
  private refreshDue(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    const mids = [...this.dueForRefresh].slice(0, REFRESH_BATCH_MAX);
    for (const mid of mids) this.dueForRefresh.delete(mid);
    if (this.dueForRefresh.size > 0) this.refreshTimer = setTimeout(() => this.refreshDue(), 0);
    const readAt = this.now();
    const reading = this.gate.run('known', () => findCredentialsOfMids(this.db, mids));
    for (const mid of mids) {
      this.track(
        mid,
        reading.then((found) => this.remember(mid, found.get(mid) ?? null, readAt)),
      ).catch(() => undefined);
    }
  }

  private isFresh(fetchedAt: number): boolean {
    return this.now() - fetchedAt < this.ttlMs;
  }

  // Somewhere in the second half of the TTL, at random: merchants first seen together (a restart, the
  // first minute of traffic) would otherwise all expire together, and every TTL their refreshes would
  // queue behind the gate's few slots with requests waiting on them.
  private refreshAfter(): number {
    return this.ttlMs * (0.5 + 0.4 * Math.random());
  }

  private read(mid: string, lane: LookupLane): Promise<MerchantCredentials | null> {
    const inFlight = this.pending.get(mid);
    if (inFlight) return inFlight;
    const readAt = this.now();
    return this.track(
      mid,
      this.gate
        .run(lane, () => findCredentialsOfMids(this.db, [mid]))
        .then((found) => this.remember(mid, found.get(mid) ?? null, readAt)),
    );
  }

  /** Registers a read of `mid` in flight, so concurrent lookups share it. */
  private track(mid: string, reading: Promise<MerchantCredentials | null>): Promise<MerchantCredentials | null> {
    const tracked = reading.finally(() => this.pending.delete(mid));
    this.pending.set(mid, tracked);
    return tracked;
  }

  // An entry is as old as the moment its statement was sent: the TTL counts from what the database showed then.
  private remember(mid: string, credentials: MerchantCredentials | null, readAt: number): MerchantCredentials | null {
    if (credentials) {
      this.known.set(mid, { credentials, fetchedAt: readAt, refreshAfterMs: this.refreshAfter() });
      this.unknown.delete(mid);
    } else {
      this.known.delete(mid);
      this.unknown.set(mid, readAt);
    }
    return credentials;
  }
}
