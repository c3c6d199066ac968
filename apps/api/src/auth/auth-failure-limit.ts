import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { AppError, clientAllowanceKey } from '@payout/domain';

export interface AuthFailureLimitOptions {
  /** Failed authentications one client address may make per window. */
  limit: number;
  windowMs: number;
  /** Called for each request refused for its address. */
  onRefused?: () => void;
  now?: () => number;
}

interface Window {
  failures: number;
  endsAt: number;
}

// Addresses tracked at once; beyond, the least recently seen are forgotten (memory stays bounded however
// many addresses a flood comes from).
const MAX_ADDRESSES = 100_000;

/**
 * A per-client-address limit that stands in front of authentication (docs/operations.md, "Floods before
 * authentication"). What it counts is failed authentications — a missing, malformed or unknown MID, a
 * wrong token — not requests: merchants send all their traffic from a few addresses (several of them
 * behind one NAT), so a limit on every request would throttle real merchants long before it stopped a
 * flood, while a flood of made-up MIDs or guessed tokens is nothing but failures. Once an address has used
 * up its failures for the window, its requests are refused with 429 before a credential is looked up —
 * all but those whose credential this process already knows to be good (authenticate.ts), so a merchant
 * sharing an address with the flood keeps being served. Authenticated traffic has its own per-merchant
 * limit (rate-limit.ts).
 *
 * Counted in this process's memory: a flood is refused without a round trip to Redis or PostgreSQL, and
 * with N API instances behind a balancer an address gets at most N times the allowance.
 */
export class AuthFailureLimit {
  private readonly windows = new LRUCache<string, Window>({ max: MAX_ADDRESSES });
  private readonly now: () => number;

  constructor(private readonly options: AuthFailureLimitOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Throws 429 if the request's address has no failures left in its window. */
  admit(req: Pick<Request, 'ip'>): void {
    const window = this.current(clientKey(req));
    if (!window || window.failures < this.options.limit) return;
    this.options.onRefused?.();
    const retryAfterSeconds = Math.max(1, Math.ceil((window.endsAt - this.now()) / 1000));
    throw new AppError('RATE_LIMITED', `Too many failed authentications; retry after ${retryAfterSeconds} s.`, {
      details: { retryAfterSeconds },
    });
  }

  /** Counts a failed authentication against the request's address. */
  recordFailure(req: Pick<Request, 'ip'>): void {
    const key = clientKey(req);
    const window = this.current(key) ?? { failures: 0, endsAt: this.now() + this.options.windowMs };
    window.failures++;
    this.windows.set(key, window);
  }

  private current(key: string): Window | undefined {
    const window = this.windows.get(key);
    return window && window.endsAt > this.now() ? window : undefined;
  }
}

/**
 * The address a client is counted by: its IP (req.ip, which honours TRUST_PROXY_HOPS), for IPv6 its /64
 * (`clientAllowanceKey` in packages/domain/src/ip-address.ts says why).
 */
export function clientKey(req: Pick<Request, 'ip'>): string {
  return clientAllowanceKey(req.ip);
}
