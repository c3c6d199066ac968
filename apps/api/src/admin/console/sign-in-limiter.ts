import type { RedisConnection } from '@payout/queue';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface SignInLimiter {
  /**
   * Seconds to wait before `username` may try again from `address`, or 0 when a try is allowed: the
   * longer of the pair's wait and the address's own (its failures across every username).
   */
  blockedFor(username: string, address: string): Promise<number>;
  /** Counts a failed sign-in, against the pair and against the address. */
  failed(username: string, address: string): Promise<void>;
  /** Forgets the pair's failures after a successful sign-in; the address's stay counted. */
  succeeded(username: string, address: string): Promise<void>;
  /**
   * Starts `check` (the password hash) if fewer than the cap are computing in this process; otherwise
   * returns undefined at once, so the caller refuses rather than queues CPU work.
   */
  withHashingSlot<T>(check: () => Promise<T>): Promise<T> | undefined;
}

export type SignInLimiterOptions = SignInCounting &
  (
    | {
        /** Password hashes computing at once in this process, for this limiter alone. */
        maxHashing: number;
      }
    | {
        /** The cap shared with another door's limiter ({@link passwordHashingSlots}), since the CPU is one. */
        hashing: PasswordHashingSlots;
      }
  );

interface SignInCounting {
  redis: RedisConnection;
  prefix: string;
  /**
   * Whose sign-ins these are: "console" (the default) or "dashboard" (a merchant's people, docs/dashboard.md
   * "Sessions"). Each door counts its own failures under its own keys.
   */
  door?: 'console' | 'dashboard';
  /** Failed sign-ins per username and address in the window. */
  attempts: number;
  /** Failed sign-ins per address, whatever the usernames, in the window. */
  addressAttempts: number;
  windowMs: number;
}

/** Starts a password check if fewer than the cap are computing; otherwise undefined at once. */
export type PasswordHashingSlots = SignInLimiter['withHashingSlot'];

/**
 * Holds back console sign-in floods (docs/operations.md, "Support console"), in three ways:
 * - failed sign-ins per username and address, so one password cannot be guessed at speed;
 * - failed sign-ins per address across usernames, so one address cannot spray guesses over many usernames
 *   (each pair under its own allowance);
 * - a cap on password hashes computing at once: each is scrypt, memory-hard (32 MiB, tens of milliseconds
 *   of a core, packages/domain/src/passwords.ts), and this process also serves the merchant API, so a
 *   flood from many addresses must not queue hashes that starve it.
 * The two counts are shared by every API process through Redis (each falls back to its own memory while
 * Redis is away); the hashing cap is each process's own, as the CPU it protects is.
 */
export function signInLimiter(options: SignInLimiterOptions): SignInLimiter {
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const counter = (name: string, points: number) =>
    new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: `${options.prefix}:${name}`,
      points,
      duration,
      insuranceLimiter: new RateLimiterMemory({ points, duration }),
    });
  const door = options.door ?? 'console';
  const pairs = counter(`${door}-signin`, options.attempts);
  const addresses = counter(`${door}-signin-address`, options.addressAttempts);
  const pairKey = (username: string, address: string) => `${username.toLowerCase().slice(0, 64)}|${address}`;
  const hashing = 'hashing' in options ? options.hashing : passwordHashingSlots(options.maxHashing);

  return {
    async blockedFor(username, address) {
      const [pair, fromAddress] = await Promise.all([pairs.get(pairKey(username, address)), addresses.get(address)]);
      return Math.max(waitSeconds(pair, options.attempts), waitSeconds(fromAddress, options.addressAttempts));
    },
    async failed(username, address) {
      await Promise.all([count(pairs, pairKey(username, address)), count(addresses, address)]);
    },
    async succeeded(username, address) {
      await pairs.delete(pairKey(username, address));
    },
    withHashingSlot: hashing,
  };
}

function waitSeconds(state: RateLimiterRes | null, allowed: number): number {
  if (!state || state.consumedPoints < allowed) return 0;
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

async function count(limiter: RateLimiterRedis, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    // Over the allowance is what blockedFor reports; counting on past it is all this needs.
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
  }
}

/** A cap of `max` password hashes computing at once, to share between limiters. */
export function passwordHashingSlots(max: number): PasswordHashingSlots {
  let computing = 0;
  return <T>(check: () => Promise<T>): Promise<T> | undefined => {
    if (computing >= max) return undefined;
    computing++;
    return (async () => {
      try {
        return await check();
      } finally {
        computing--;
      }
    })();
  };
}
