import type { Queue } from 'bullmq';
import { findPayoutSubject, type PrismaClient } from '@payout/db';
import { ensureJob, jobRequest, payoutJobs, type EnsureJobAction } from '@payout/queue';
import type { PayoutKey } from './payout-key.js';
import { audit } from './audit.js';

export type RequeueInquiryOutcome =
  | { kind: 'requeued'; ackNo: string; attempt: number; action: EnsureJobAction }
  | { kind: 'no-payout' }
  | { kind: 'not-waiting'; ackNo: string; state: string }
  | { kind: 'queue-unavailable'; ackNo: string; detail: string };

// Only a payout waiting on the rail's decision has an inquiry to ask; an accepted one waits for its
// execute job, and one under manual review is resolved by a person (the worker asks nothing more).
const WAITING_ON_RAIL = ['AWAITING_RAIL', 'OUTCOME_UNKNOWN'];

/**
 * Makes sure the payout's next inquiry is queued now, as the sweeper would once it is overdue: for an
 * operator who does not want to wait for the next scheduled ask. Harmless to repeat (the job id is the
 * inquiry's number).
 */
export async function requeueInquiry(
  deps: { db: PrismaClient; payoutQueue: Queue },
  input: { payout: PayoutKey; actor: string; reason: string },
): Promise<RequeueInquiryOutcome> {
  const payout = await findPayoutSubject(deps.db, input.payout);
  if (!payout) return { kind: 'no-payout' };
  if (!WAITING_ON_RAIL.includes(payout.state)) return { kind: 'not-waiting', ackNo: payout.ackNo, state: payout.state };
  const attempt = payout.inquiryAttempts + 1;
  let action: EnsureJobAction;
  try {
    action = await ensureJob(
      deps.payoutQueue,
      jobRequest(payoutJobs.inquire, { payoutId: payout.id.toString(), attempt }),
    );
  } catch (error) {
    return { kind: 'queue-unavailable', ackNo: payout.ackNo, detail: (error as Error).message };
  }
  await audit(deps.db, input, 'inquiry.requeue', {
    merchantId: payout.merchantId,
    payoutId: payout.id,
    detail: { attempt, job: action },
  });
  return { kind: 'requeued', ackNo: payout.ackNo, attempt, action };
}
