export {
  startWebhookWorker,
  type RunningWebhookWorker,
  type WebhookWorkerConfig,
  type WebhookWorkerDeps,
} from './webhook-worker.js';
export { WebhookDeliverer, type WebhookDelivererOptions } from './deliver-webhook.job.js';
export { WebhookSweeper, type WebhookSweepResult } from './webhook-sweeper.js';
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE, webhookRetryDelayMs, type WebhookRetrySchedule } from './retry-schedule.js';
