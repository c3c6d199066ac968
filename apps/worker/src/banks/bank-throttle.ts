import type { BankSettings } from '@payout/config';
import type { BankName } from '@payout/domain';
import type { RedisConnection } from '@payout/queue';
import type { Logger } from '@payout/telemetry';

/** Waits for a free slot of a bank's calls a second before a call to it. */
export interface BankThrottle {
  take(bank: BankName): Promise<void>;
}

/** No wait: with one bank, the payouts queue's own limiter (RAIL_MAX_TPS) is the bank's. */
export const NO_THROTTLE: BankThrottle = { take: () => Promise.resolve() };

/**
 * Each bank's `maxTps` across every worker process (docs/banks.md, "Settings"): a counter per bank in Redis
 * (rate-limiter-flexible, as the API's per-merchant limit; keys under the queue prefix, so in its slot on a
 * Redis Cluster). BullMQ's limiter is the queue's, one for all jobs, so it cannot hold one bank to its rate
 * without holding the others to it; here a call waits only for its own bank's slot, and a bank at its limit
 * never slows another. If Redis fails, the call goes ahead: the queue's limiter (the banks' sum) still bounds it.
 * A call waiting for its bank's slot holds one of the worker's job slots meanwhile.
 */
export async function bankThrottle(options: {
  redis: RedisConnection;
  prefix: string;
  banks: readonly BankSettings[];
  logger: Logger;
}): Promise<BankThrottle> {
  // Loaded only with several banks: a one-bank worker starts without it.
  const { RateLimiterRedis, RateLimiterRes } = await import('rate-limiter-flexible');
  const limiters = new Map(
    options.banks.map((bank) => [
      bank.name,
      new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix: `${options.prefix}:bank-tps`,
        points: bank.maxTps,
        duration: 1,
      }),
    ]),
  );
  let warnedAt = Number.NEGATIVE_INFINITY;
  return {
    async take(bank) {
      const limiter = limiters.get(bank);
      if (!limiter) return;
      for (;;) {
        try {
          await limiter.consume(bank);
          return;
        } catch (outcome) {
          if (!(outcome instanceof RateLimiterRes)) {
            if (performance.now() - warnedAt > 10_000) {
              warnedAt = performance.now();
              options.logger.warn({ err: (outcome as Error).message, bank }, 'bank rate limit unavailable; calling');
            }
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.max(1, outcome.msBeforeNext)));
        }
      }
    },
  };
}
