import type { RequestHandler } from 'express';
import type { RedisConnection } from '@payout/queue';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@payout/domain';
import { merchantOf } from './authenticate.js';

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
 * Per-merchant rate limiting shared by every API process (counters in Redis). Runs after authentication,
 * so one merchant's flood — or made-up MIDs — cannot use up another's allowance. If Redis is unreachable or
 * does not answer within its command deadline, each process counts in its own memory for a few seconds
 * rather than refusing every merchant or waiting on Redis.
 */
export function merchantRateLimit(options: RateLimitOptions): RequestHandler {
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const shared = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.prefix}:ratelimit`,
    points: options.points,
    duration,
  });
  const local = new RateLimiterMemory({ points: options.points, duration });
  let redisFailedAt = Number.NEGATIVE_INFINITY;

  async function consume(mid: string): Promise<RateLimiterRes> {
    if (performance.now() - redisFailedAt >= REDIS_RETRY_AFTER_MS) {
      try {
        return await shared.consume(mid);
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) throw outcome;
        redisFailedAt = performance.now();
        options.onFallback?.(outcome);
      }
    }
    return local.consume(mid);
  }

  return async (_req, res, next) => {
    const { mid } = merchantOf(res);
    try {
      const state = await consume(mid);
      res.setHeader('X-RateLimit-Limit', String(options.points));
      res.setHeader('X-RateLimit-Remaining', String(state.remainingPoints));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new AppError('RATE_LIMITED', `Too many requests for this MID; retry after ${retryAfterSeconds} s.`, {
        details: { retryAfterSeconds },
      });
    }
    next();
  };
}
