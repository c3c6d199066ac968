import type { RedisConnection } from '@payout/queue';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface SignInLimiter {
  /** Seconds to wait before `username` may try again from `address`, or 0 when a try is allowed. */
  blockedFor(username: string, address: string): Promise<number>;
  /** Counts a failed sign-in. */
  failed(username: string, address: string): Promise<void>;
  /** Forgets the failures of a successful sign-in. */
  succeeded(username: string, address: string): Promise<void>;
}

/**
 * Limits failed console sign-ins per username and address (shared by every API process through Redis;
 * each falls back to its own memory while Redis is away), so passwords cannot be guessed at speed.
 */
export function signInLimiter(options: {
  redis: RedisConnection;
  prefix: string;
  attempts: number;
  windowMs: number;
}): SignInLimiter {
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.prefix}:console-signin`,
    points: options.attempts,
    duration,
    insuranceLimiter: new RateLimiterMemory({ points: options.attempts, duration }),
  });
  const key = (username: string, address: string) => `${username.toLowerCase().slice(0, 64)}|${address}`;
  return {
    async blockedFor(username, address) {
      const state = await limiter.get(key(username, address));
      if (!state || state.consumedPoints < options.attempts) return 0;
      return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    },
    async failed(username, address) {
      try {
        await limiter.consume(key(username, address));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      }
    },
    async succeeded(username, address) {
      await limiter.delete(key(username, address));
    },
  };
}
