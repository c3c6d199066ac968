export {
  startWebhookWorker,
  type RunningWebhookWorker,
  type WebhookWorkerConfig,
  type WebhookWorkerDeps,
} from './webhook-worker.js';
export { WebhookDeliverer, type WebhookDelivererOptions } from './deliver-webhook.job.js';
export { webhookSweepPlan } from './webhook-sweep-plan.js';
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE, webhookRetryDelayMs, type WebhookRetrySchedule } from './retry-schedule.js';
