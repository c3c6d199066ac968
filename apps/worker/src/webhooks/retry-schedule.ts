/** How long a failed webhook attempt waits before the next: doubling from `firstDelayMs` up to `maxDelayMs`. */
export interface WebhookRetrySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
}

/**
 * 15 s, 30 s, 1 min, … doubling to one attempt an hour: about 30 attempts in a 24-hour retry window, most
 * of them early, when a failure is most likely a blip.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: WebhookRetrySchedule = {
  firstDelayMs: 15_000,
  maxDelayMs: 60 * 60 * 1000,
};

/**
 * The wait after failed attempt number `attempt` (1 for the first). "Equal jitter": half the step is fixed
 * and half random, so the retries of many deliveries that failed together (a merchant's endpoint down) do
 * not all arrive at once when it comes back, yet none comes sooner than half its step.
 */
export function webhookRetryDelayMs(
  attempt: number,
  schedule: WebhookRetrySchedule,
  random: () => number = Math.random,
): number {
  const step = Math.min(schedule.maxDelayMs, schedule.firstDelayMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(step / 2 + (random() * step) / 2);
}
