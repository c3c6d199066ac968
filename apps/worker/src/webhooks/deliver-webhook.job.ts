import {
  claimWebhookAttempt,
  finishWebhookAttempt,
  type PrismaClient,
  type WebhookAttemptOutcome,
  type WebhookDeliveryNext,
  type WebhookSubject,
} from '@payout/db';
import { downtimeWebhookPayload, webhookPayload } from '@payout/contract';
import { stringifyJson, WEBHOOK_SIGNATURE_HEADER, webhookSignature } from '@payout/domain';
import { jobProcessor, webhookJobs } from '@payout/queue';
import type { Logger } from '@payout/telemetry';
import type { WebhookAttemptScheduler } from './webhook-attempt-scheduler.js';
import { webhookRetryDelayMs, type WebhookRetrySchedule } from './retry-schedule.js';
import type { WebhookSender } from './webhook-sender.js';

interface WebhookDelivererOptions {
  db: PrismaClient;
  scheduler: WebhookAttemptScheduler;
  logger: Logger;
  /** Sends each attempt, to permitted addresses only. */
  sender: WebhookSender;
  /** Longest wait for the merchant's endpoint. */
  timeoutMs: number;
  /**
   * Once a failed attempt's next one would fall later than this after the delivery was recorded (or its
   * endpoint enabled again), the endpoint is disabled and its deliveries held.
   */
  retryForMs: number;
  schedule: WebhookRetrySchedule;
  now?: () => number;
  random?: () => number;
}

// An attempt that has not reported back this long after its deadline is taken as lost (its worker died).
const LEASE_MARGIN_MS = 10_000;

/**
 * Delivers webhooks, one attempt per job: claim the attempt in PostgreSQL, POST the payout result
 * (docs/api.md, "Response bodies"; built by the same code as the API's answer) or the bank downtime
 * (docs/webhooks.md, "Downtime webhooks") signed with the merchant's secret, record what came
 * back, and either finish the delivery or queue the next attempt after an exponential, jittered delay.
 * Delivery is at least once: a merchant may see a notification again (same `X-Webhook-Id`), never miss one.
 * An endpoint that fails a delivery for its whole retry window is disabled and the merchant's deliveries are
 * held, not dropped, until an operator enables it (docs/webhooks.md).
 */
export class WebhookDeliverer {
  private readonly now: () => number;

  constructor(private readonly options: WebhookDelivererOptions) {
    this.now = options.now ?? Date.now;
  }

  async deliver(deliveryId: bigint, attempt: number): Promise<string> {
    const lease = new Date(this.now() + this.options.timeoutMs + LEASE_MARGIN_MS);
    const claim = await claimWebhookAttempt(this.options.db, deliveryId, attempt, lease);
    if (!claim) return `attempt ${attempt} not claimed: stale, or the delivery is finished`;
    const log = { deliveryId: deliveryId.toString(), attempt, ...subjectForLog(claim.subject) };

    if (!claim.url || claim.secrets.length === 0) {
      const outcome = { durationMs: 0, statusCode: null, error: 'the merchant has no webhook endpoint' };
      await finishWebhookAttempt(this.options.db, deliveryId, attempt, outcome, { status: 'FAILED' });
      this.options.logger.warn(log, 'webhook given up: no endpoint');
      return 'FAILED: no endpoint';
    }

    const body = stringifyJson(payloadOf(claim.subject, claim.sequence));
    const timestamp = Math.floor(this.now() / 1000);
    const outcome = await this.options.sender.post(
      claim.url,
      body,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'payout-gateway-webhooks/1',
        'X-Webhook-Id': deliveryId.toString(),
        'X-Webhook-Attempt': String(attempt),
        // The same number as the body's `sequence`, for a receiver that routes on headers; the body's is signed.
        'X-Webhook-Sequence': String(claim.sequence),
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(claim.secrets, timestamp, body),
      },
      this.options.timeoutMs,
    );

    const { next, delayMs } = this.decide(outcome, deliveryId, attempt, claim.windowStartsAt);
    const moved = await finishWebhookAttempt(this.options.db, deliveryId, attempt, outcome, next);
    const detail = {
      ...log,
      endpoint: originOf(claim.url),
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: Math.round(outcome.durationMs),
    };
    if (!moved) {
      this.options.logger.warn(detail, 'webhook attempt reported after its lease: a later attempt decides');
      return `attempt ${attempt} superseded`;
    }
    if (next.status === 'PENDING') {
      await this.options.scheduler.scheduleAttempt(deliveryId, attempt + 1, delayMs);
      this.options.logger.info({ ...detail, retryInMs: delayMs }, 'webhook attempt failed: retry scheduled');
      return `attempt ${attempt} failed; attempt ${attempt + 1} in ${delayMs} ms`;
    }
    if (next.status === 'HELD') this.options.logger.warn(detail, 'webhook endpoint disabled: retry window over');
    else this.options.logger.info(detail, 'webhook delivered');
    return next.status;
  }

  private decide(
    outcome: WebhookAttemptOutcome,
    deliveryId: bigint,
    attempt: number,
    windowStartsAt: Date,
  ): { next: WebhookDeliveryNext; delayMs: number } {
    const code = outcome.statusCode;
    if (code !== null && code >= 200 && code < 300) return { next: { status: 'DELIVERED' }, delayMs: 0 };
    const delayMs = webhookRetryDelayMs(attempt, this.options.schedule, this.options.random);
    const nextAttemptAt = this.now() + delayMs;
    if (nextAttemptAt > windowStartsAt.getTime() + this.options.retryForMs) {
      const last = outcome.statusCode !== null ? `answered ${outcome.statusCode}` : (outcome.error ?? 'failed');
      const disabledReason = `all ${attempt} attempts of delivery ${deliveryId} failed over its whole retry window; the last ${last}`;
      return { next: { status: 'HELD', disabledReason }, delayMs };
    }
    return { next: { status: 'PENDING', nextAttemptAt: new Date(nextAttemptAt) }, delayMs };
  }
}

/** The signed body: the payout's result as it is now, or the downtime's members, with the event's sequence. */
function payloadOf(subject: WebhookSubject, sequence: number) {
  return subject.kind === 'payout'
    ? webhookPayload(subject.payout, sequence)
    : downtimeWebhookPayload(subject.downtime, subject.resolved, sequence);
}

function subjectForLog(subject: WebhookSubject) {
  return subject.kind === 'payout'
    ? { ackNo: subject.payout.ackNo }
    : { downtimeId: subject.downtimeId.toString(), bank: subject.downtime.bank, mode: subject.downtime.mode };
}

/** Only the scheme, host and port go to the logs: a path or query may carry the merchant's own tokens. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}

/** Routes each job of the webhooks queue to the deliverer; a payload that does not fit can never succeed. */
export function webhookProcessor(deliverer: WebhookDeliverer) {
  return jobProcessor(webhookJobs, {
    deliver: (data) => deliverer.deliver(BigInt(data.deliveryId), data.attempt),
  });
}
