import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankSettingsSchema } from '@payout/config';
import { createProducerConnection } from '@payout/queue';
import { createLogger } from '@payout/telemetry';
import { BankHealthWindow } from '../../apps/worker/src/banks/health-window.js';

// A bank's health window in Redis (docs/banks.md, "Health"): two windows on one Redis and prefix stand for two
// workers, each counting what its own submits met; time is the test's, so every second is the one written.

const redis = createProducerConnection(process.env.REDIS_URL!);
beforeAll(async () => {
  if (redis.status !== 'ready') await once(redis, 'ready');
});
afterAll(() => redis.quit());

const banks = [bankSettingsSchema.parse({ name: 'primary', baseUrl: 'http://127.0.0.1:1', modes: ['IMPS'] })];
let now = 1_800_000_000_000;
const windowOf = () =>
  new BankHealthWindow({
    redis,
    prefix: `${process.env.QUEUE_PREFIX}:window`,
    windowMs: 60_000,
    flushMs: 1_000,
    logger: createLogger('test', 'silent'),
    now: () => now,
  });

describe('the health window shared by the workers', () => {
  it('when one worker counted healthy answers and another only failures since, then the window holds both and its newest run is the failures', async () => {
    const [one, two] = [windowOf(), windowOf()];
    for (let i = 0; i < 40; i++) one.record('primary', 'IMPS', 'PAID');
    await one.flush();
    now += 1_000;
    for (let i = 0; i < 6; i++) two.record('primary', 'IMPS', 'TECHNICAL');
    now += 2_000;
    two.record('primary', 'IMPS', 'TIMEOUT');
    await two.flush();
    const read = (await one.read(banks)).get('primary:IMPS');
    expect(read).toEqual({
      counts: { paid: 40, refused: 0, technical: 6, timeouts: 1 },
      run: { failures: 7, failingForMs: 2_000, healthy: 0 },
    });
  });

  it('when the window is started afresh, then counts from before — even those another worker writes late — no longer count', async () => {
    const [one, late] = [windowOf(), windowOf()];
    late.record('primary', 'IMPS', 'TECHNICAL');
    now += 1_000;
    await one.restart('primary', 'IMPS');
    await late.flush();
    one.record('primary', 'IMPS', 'PAID');
    one.record('primary', 'IMPS', 'PAID');
    await one.flush();
    expect((await one.read(banks)).get('primary:IMPS')).toEqual({
      counts: { paid: 2, refused: 0, technical: 0, timeouts: 0 },
      run: { failures: 0, failingForMs: 0, healthy: 2 },
    });
  });

  it('when seconds leave the window, then they are pruned from Redis', async () => {
    const window = windowOf();
    now += 61_000;
    window.record('primary', 'IMPS', 'REFUSED');
    await window.flush();
    expect((await window.read(banks)).get('primary:IMPS')!.counts).toEqual({
      paid: 0,
      refused: 1,
      technical: 0,
      timeouts: 0,
    });
    const fields = await redis.hkeys(`${process.env.QUEUE_PREFIX}:window:bank-health:primary:IMPS`);
    expect(fields.sort()).toEqual([`${Math.floor(now / 1000)}:REFUSED`, 'since']);
  });
});
