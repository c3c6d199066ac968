import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@payout/domain';
import { merchantOf } from './authenticate.js';

export interface RateLimitOptions {
  redis: Redis;
  prefix: string;
  points: number;
  windowMs: number;
}

/**
 * Per-merchant rate limiting shared by every API process (counters in Redis). Runs after authentication,
 * so one merchant's flood — or made-up MIDs — cannot use up another's allowance. If Redis is unreachable
 * each process falls back to its own in-memory limiter rather than refusing every merchant.
 */
export function merchantRateLimit(options: RateLimitOptions): RequestHandler {
  const duration = Math.max(1, Math.ceil(options.windowMs / 1000));
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: `${options.prefix}:ratelimit`,
    points: options.points,
    duration,
    insuranceLimiter: new RateLimiterMemory({ points: options.points, duration }),
  });
  return async (_req, res, next) => {
    const { mid } = merchantOf(res);
    try {
      const state = await limiter.consume(mid);
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
