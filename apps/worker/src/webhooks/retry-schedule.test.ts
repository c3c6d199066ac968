import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, webhookRetryDelayMs } from './retry-schedule.js';

const schedule = { firstDelayMs: 1_000, maxDelayMs: 8_000 };

describe('webhook retry delays', () => {
  it('when attempts keep failing, then the step doubles up to the maximum', () => {
    const top = (attempt: number) => webhookRetryDelayMs(attempt, schedule, () => 1);
    expect([1, 2, 3, 4, 5, 30, 1000].map(top)).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
  });

  it('when jittered, then a delay lies between half its step and the whole step', () => {
    expect(webhookRetryDelayMs(3, schedule, () => 0)).toBe(2_000);
    expect(webhookRetryDelayMs(3, schedule, () => 0.5)).toBe(3_000);
    for (let i = 0; i < 200; i++) {
      const delay = webhookRetryDelayMs(3, schedule);
      expect(delay).toBeGreaterThanOrEqual(2_000);
      expect(delay).toBeLessThanOrEqual(4_000);
    }
  });

  it('when the default schedule runs for 24 hours at its slowest, then it makes about 30 attempts', () => {
    let elapsed = 0;
    let attempts = 1;
    while (elapsed + webhookRetryDelayMs(attempts, DEFAULT_WEBHOOK_RETRY_SCHEDULE, () => 1) <= 24 * 3600 * 1000) {
      elapsed += webhookRetryDelayMs(attempts, DEFAULT_WEBHOOK_RETRY_SCHEDULE, () => 1);
      attempts++;
    }
    expect(attempts).toBeGreaterThanOrEqual(28);
    expect(attempts).toBeLessThanOrEqual(34);
  });
});
