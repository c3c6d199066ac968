import { AppError } from '@payout/domain';
import { MESSAGES } from '../http/error-responses.js';

/** Which queue a look-up waits in: MIDs this process has served before go first. */
export type LookupLane = 'known' | 'unknown';

interface Waiter {
  start: () => void;
}

/**
 * Caps the credential look-ups running in PostgreSQL at once, so a flood of made-up MIDs can hold at most
 * `maxInFlight` connections and never the whole pool. Look-ups of MIDs this process already knows (a
 * merchant's credentials being refreshed) wait in a lane of their own that is always served first, and may
 * run up to `maxKnownInFlight` at once: over 1,000 merchants most merchants send less than once per cache
 * TTL, so most of their requests need a read, and two slots made requests queue behind each other's reads
 * (the p99 at moderate load, docs/performance.md "Credentials: cache, refresh and gate"). Look-ups of MIDs
 * never seen wait in a bounded lane, and beyond `maxWaiting` are refused at once with a 503, so a flood
 * cannot queue up work (or memory) without end, nor delay a real merchant behind it.
 */
export class LookupGate {
  private inFlight = 0;
  private readonly lanes: Record<LookupLane, Waiter[]> = { known: [], unknown: [] };
  private readonly maxKnownInFlight: number;

  constructor(
    private readonly maxInFlight: number,
    private readonly maxWaiting: number,
    private readonly onRefused: () => void = () => undefined,
    maxKnownInFlight = maxInFlight,
  ) {
    this.maxKnownInFlight = Math.max(maxInFlight, maxKnownInFlight);
  }

  async run<T>(lane: LookupLane, lookup: () => Promise<T>): Promise<T> {
    if (this.inFlight >= (lane === 'known' ? this.maxKnownInFlight : this.maxInFlight)) await this.wait(lane);
    else this.inFlight++;
    try {
      return await lookup();
    } finally {
      this.release();
    }
  }

  private wait(lane: LookupLane): Promise<void> {
    if (lane === 'unknown' && this.lanes.unknown.length >= this.maxWaiting) {
      this.onRefused();
      return Promise.reject(
        new AppError('DEPENDENCY_UNAVAILABLE', MESSAGES.unavailable, { details: { retryAfterSeconds: 1 } }),
      );
    }
    return new Promise((start) => this.lanes[lane].push({ start }));
  }

  // A finished look-up hands its slot to the next waiter, known MIDs first; a never-seen MID only while
  // fewer than `maxInFlight` run.
  private release(): void {
    this.inFlight--;
    const next =
      this.lanes.known.length > 0 && this.inFlight < this.maxKnownInFlight
        ? this.lanes.known.shift()
        : this.inFlight < this.maxInFlight
          ? this.lanes.unknown.shift()
          : undefined;
    if (!next) return;
    this.inFlight++;
    next.start();
  }
}
