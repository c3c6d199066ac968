export { startWebhookWorker, type RunningWebhookWorker } from './webhook-worker.js';
