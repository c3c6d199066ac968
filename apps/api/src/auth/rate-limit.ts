import type { RequestHandler } from 'express';
import type { RedisConnection } from '@payout/queue';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@payout/domain';
import { merchantOf } from './authenticate.js';

export interface SharedAllowanceOptions {
  redis: RedisConnection;
  /** Prefix of the allowance's Redis keys: each allowance has its own. */
  keyPrefix: string;
  points: number;
  windowMs: number;
  /** Called once each time Redis fails and the allowance turns to memory. */
  onFallback?: (error: unknown) => void;
}

/** Takes one point of `key`'s allowance; rejects with the RateLimiterRes when none is left. */
export type TakePoint = (key: string) => Promise<RateLimiterRes>;

export interface RateLimitOptions {
  redis: RedisConnection;
  prefix: string;
  points: number;
  windowMs: number;
  /** Called once each time Redis fails and the limiter turns to memory. */
  onFallback?: (error: unknown) => void;
}

// After Redis fails a command (down, or past its command deadline), the next requests do not try it again
// for this long: a paused Redis then costs one request one command deadline, not every request.
const REDIS_RETRY_AFTER_MS = 5_000;

/**
 * Per-key allowances shared by every API process (counters in Redis). If Redis is unreachable or does not
 * answer within its command deadline, each process counts in its own memory for a few seconds rather than
 * refusing every merchant or waiting on Redis.
 */
export function sharedAllowance(options: SharedAllowanceOptions): TakePoint {
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const shared = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration,
  });
  const local = new RateLimiterMemory({ points: options.points, duration });
  let redisFailedAt = Number.NEGATIVE_INFINITY;

  return async (key) => {
    if (performance.now() - redisFailedAt >= REDIS_RETRY_AFTER_MS) {
      try {
        return await shared.consume(key);
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) throw outcome;
        redisFailedAt = performance.now();
        options.onFallback?.(outcome);
      }
    }
    return local.consume(key);
  };
}

/**
 * Takes a point of `key`'s allowance, or throws the contract's 429 (`RATE_LIMITED`, with Retry-After) saying
 * `what` is over its allowance.
 */
export async function takeOrRefuse(take: TakePoint, key: string, what: string): Promise<RateLimiterRes> {
  try {
    return await take(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new AppError('RATE_LIMITED', `Too many ${what}; retry after ${retryAfterSeconds} s.`, {
      details: { retryAfterSeconds },
    });
  }
}

/**
 * Per-merchant rate limiting shared by every API process (a {@link sharedAllowance}). Runs after
 * authentication, so one merchant's flood — or made-up MIDs — cannot use up another's allowance.
 */
export function merchantRateLimit(options: RateLimitOptions): RequestHandler {
  const take = sharedAllowance({ ...options, keyPrefix: `${options.prefix}:ratelimit` });
  return async (_req, res, next) => {
    const { mid } = merchantOf(res);
    const state = await takeOrRefuse(take, mid, 'requests for this MID');
    res.setHeader('X-RateLimit-Limit', String(options.points));
    res.setHeader('X-RateLimit-Remaining', String(state.remainingPoints));
    next();
  };
}
