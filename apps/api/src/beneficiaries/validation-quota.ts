import type { RedisConnection } from '@payout/queue';
import { sharedAllowance, takeOrRefuse } from '../auth/rate-limit.js';

/** Beneficiary validations a merchant may still ask for this minute. */
export interface ValidationQuota {
  /** Counts one validation of `mid`; throws the contract's 429 (with Retry-After) past its quota. */
  take(mid: string): Promise<void>;
}

/**
 * Each merchant's own quota of beneficiary validations per minute (VALIDATION_RATE_PER_MINUTE, docs/api.md
 * "Beneficiary validation"), across every API process. Apart from the general per-MID rate limit because a
 * validation is no ordinary request: it may cost a question to a bank, and its answer is the name the bank
 * holds for an account, so a merchant must not be able to sweep account numbers at its full request rate.
 * Every validation counts, answered from the cache or not.
 */
export function validationQuota(options: {
  redis: RedisConnection;
  prefix: string;
  perMinute: number;
  onFallback?: (error: unknown) => void;
}): ValidationQuota {
  const take = sharedAllowance({
    redis: options.redis,
    keyPrefix: `${options.prefix}:validation-quota`,
    points: options.perMinute,
    windowMs: 60_000,
    onFallback: options.onFallback,
  });
  return {
    async take(mid) {
      await takeOrRefuse(take, mid, 'beneficiary validations for this MID');
    },
  };
}
