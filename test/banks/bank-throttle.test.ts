import { afterAll, describe, expect, it } from 'vitest';
import { bankSettingsSchema } from '@payout/config';
import { createProducerConnection } from '@payout/queue';
import { createLogger } from '@payout/telemetry';
import { bankThrottle } from '../../apps/worker/src/banks/bank-throttle.js';

// Each bank's TPS across every worker process (docs/banks.md, "Settings"): two throttles on one Redis and
// prefix stand for two workers. The slow bank's calls beyond its second's allowance wait for the next
// second, wherever they come from; the other bank's calls never wait behind them.

const redis = createProducerConnection(process.env.REDIS_URL!);
afterAll(() => redis.disconnect());

const banks = [
  bankSettingsSchema.parse({ name: 'slow', baseUrl: 'http://127.0.0.1:1', maxTps: 4 }),
  bankSettingsSchema.parse({ name: 'fast', baseUrl: 'http://127.0.0.1:2', maxTps: 1_000 }),
];

describe("each bank's own rate", () => {
  it('when two workers call a bank past its TPS, then the calls past it wait for the next second, and another bank never waits behind them', async () => {
    const options = {
      redis,
      prefix: `${process.env.QUEUE_PREFIX}:throttle`,
      banks,
      logger: createLogger('worker', 'silent'),
    };
    const workers = [await bankThrottle(options), await bankThrottle(options)];

    const slowDone: number[] = [];
    const slow = Array.from({ length: 10 }, (_, i) =>
      workers[i % 2]!.take('slow').then(() => slowDone.push(performance.now())),
    );
    const fast = Array.from({ length: 60 }, (_, i) => workers[i % 2]!.take('fast'));

    await Promise.all(fast);
    // Every call to the fast bank went ahead while the slow bank's extra calls were still waiting.
    expect(slowDone.length).toBeLessThanOrEqual(4);
    await Promise.all(slow);
    expect(slowDone).toHaveLength(10);
    // Ten calls at four a second, from both workers together: three windows of the one shared counter.
    const spreadMs = Math.max(...slowDone) - Math.min(...slowDone);
    expect(spreadMs).toBeGreaterThanOrEqual(1_000);
  });

  it('when a bank is not configured, then its calls are not held', async () => {
    const throttle = await bankThrottle({
      redis,
      prefix: `${process.env.QUEUE_PREFIX}:throttle-unknown`,
      banks,
      logger: createLogger('worker', 'silent'),
    });
    await expect(Promise.all(Array.from({ length: 20 }, () => throttle.take('elsewhere')))).resolves.toHaveLength(20);
  });
});
