import { describe, expect, it } from 'vitest';
import { jobRequest, payoutJobs, webhookJobs, type JobData } from './job-catalog.js';
import type { JobHandlers } from './job-processor.js';

describe('job catalog', () => {
  it('when a job is built from its entry, then its id is the one the entry gives for those ids and its policy is the entry’s', () => {
    const execute = jobRequest(payoutJobs.execute, { payoutId: '42' });
    expect(execute).toMatchObject({ queue: 'payouts', name: 'execute-payout', data: { payoutId: '42' } });
    expect(execute.opts).toEqual({ ...payoutJobs.execute.options, jobId: payoutJobs.execute.jobId('42') });
    const inquire = jobRequest(payoutJobs.inquire, { payoutId: '42', attempt: 3 }, { delay: 5_000 });
    expect(inquire.opts).toMatchObject({ jobId: 'inquire-42-3', delay: 5_000, attempts: 10 });
    expect(jobRequest(webhookJobs.deliver, { deliveryId: '7', attempt: 1 })).toMatchObject({
      queue: 'webhooks',
      opts: { jobId: webhookJobs.deliver.jobId('7', 1) },
    });
  });

  it('when a payload does not match its entry or a handler is missing, then it does not compile', () => {
    // Compiled by `tsc` (the @ts-expect-error lines fail the typecheck if they ever compile); never run.
    const neverCalled = () => {
      // @ts-expect-error an execute job carries no attempt
      jobRequest(payoutJobs.execute, { payoutId: '1', attempt: 1 });
      // @ts-expect-error an inquiry needs its attempt
      jobRequest(payoutJobs.inquire, { payoutId: '1' });
      // @ts-expect-error ids travel as strings (lossless JSON)
      jobRequest(webhookJobs.deliver, { deliveryId: 1n, attempt: 1 });
      // @ts-expect-error the inquire handler is missing
      const handlers: JobHandlers<typeof payoutJobs, string> = { execute: () => Promise.resolve('ok') };
      return handlers;
    };
    expect(typeof neverCalled).toBe('function');
    const data: JobData<typeof payoutJobs.inquire> = { payoutId: '1', attempt: 1 };
    expect(payoutJobs.inquire.data.parse(data)).toEqual(data);
  });
});
