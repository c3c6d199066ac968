export { jobRequest, PAYOUT_QUEUE, payoutJobs, type JobRequest } from './job-catalog.js';
export { WEBHOOK_QUEUE, webhookJobs } from './job-catalog.js';
export {
  createPayoutProducer,
  JOBS_PER_COMMAND,
  type EnqueueOutcome,
  type PayoutProducer,
  type ScheduledExecution,
} from './payout-producer.js';
export { createProducerConnection, createWorkerConnection, type RedisConnection } from './redis-connection.js';
export { findPayoutJobs, type PayoutJobView } from './job-inspection.js';
export { deleteKeysMatching } from './redis-keys.js';
export { addJob, ensureJob, type EnsureJobAction } from './ensure-job.js';
export { queueFirstAttempt, queueResumedDeliveries } from './webhook-producer.js';
export { jobProcessor } from './job-processor.js';
