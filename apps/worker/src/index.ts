export { inquirySchedulesOf, startWorker, type RunningWorker, type WorkerOverrides } from './worker-process.js';
export { PayoutDriver, type PayoutDriverOptions } from './payout-driver.js';
export { JobSweeper, payoutSweepPlan, type SweepPlan, type SweepResult } from './sweeper.js';
