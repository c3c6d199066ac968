import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankSettingsSchema } from '@payout/config';
import { createProducerConnection } from '@payout/queue';
import { createLogger } from '@payout/telemetry';
import { bankThrottle } from '../../apps/worker/src/banks/bank-throttle.js';

// Each bank's TPS across every worker process (docs/banks.md, "Settings"): two throttles on one Redis and
// prefix stand for two workers. The slow bank's calls beyond its second's allowance wait for the next
// second, wherever they come from; the other bank's calls never wait behind them.

const redis = createProducerConnection(process.env.REDIS_URL!);
// The connection queues nothing while it connects, and a throttle whose Redis fails lets calls through:
// the test starts once the connection is up, so what it measures is the shared counter.
beforeAll(async () => {
  if (redis.status !== 'ready') await once(redis, 'ready');
});
afterAll(() => redis.disconnect());

const banks = [
  bankSettingsSchema.parse({ name: 'slow', baseUrl: 'http://127.0.0.1:1', maxTps: 2 }),
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
    const fastDone: number[] = [];
    const startedAt = performance.now();
    const slow = Array.from({ length: 10 }, (_, i) =>
      workers[i % 2]!.take('slow').then(() => slowDone.push(performance.now() - startedAt)),
    );
    const fast = Array.from({ length: 20 }, (_, i) =>
      workers[i % 2]!.take('fast').then(() => fastDone.push(performance.now() - startedAt)),
    );
    await Promise.all([...slow, ...fast]);

    // Ten calls at two a second between both workers: five windows of one shared counter, so the last call
    // goes four seconds after the first. Counted per worker, it would be three windows (two seconds).
    expect(Math.max(...slowDone) - Math.min(...slowDone)).toBeGreaterThanOrEqual(3_900);
    // The fast bank's calls went ahead long before the slow bank's last window.
    expect(Math.max(...fastDone)).toBeLessThan(Math.max(...slowDone) - 1_000);
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
