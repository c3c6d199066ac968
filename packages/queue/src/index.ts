export {
  jobRequest,
  PAYOUT_QUEUE,
  payoutJobs,
  type ExecutePayoutJob,
  type InquirePayoutJob,
  type JobData,
  type JobRequest,
  type JobSpec,
} from './job-catalog.js';
export { WEBHOOK_QUEUE, webhookJobs, type DeliverWebhookJob } from './job-catalog.js';
export { createPayoutProducer, type PayoutProducer, type PayoutProducerOptions } from './payout-producer.js';
export {
  clusterNodes,
  createProducerConnection,
  createWorkerConnection,
  type RedisConnection,
  type RedisTarget,
} from './redis-connection.js';
export { findPayoutJobs, type PayoutJobView } from './job-inspection.js';
export { deleteKeysMatching } from './redis-keys.js';
export { addJob, ensureJob, type EnsureJobAction } from './ensure-job.js';
export { jobProcessor, type JobHandlers } from './job-processor.js';
