import { createHash } from 'node:crypto';
import { errorBody, parseBulkItem } from '@payout/contract';
import { AppError, isAppError, stringifyJson, type ErrorCode } from '@payout/domain';
import {
  findBulkBatch,
  recordBulkBatch,
  type BulkBatchNow,
  type BulkItemRecord,
  type PayoutSummary,
  type PrismaClient,
} from '@payout/db';
import type { Logger } from '@payout/telemetry';
import { queueExecution, recordPayout, type CreatePayoutDeps, type IntakeMerchant } from './create-payout.js';

export interface SubmitBulkDeps extends CreatePayoutDeps {
  db: PrismaClient;
}

/** A merchant's batch: its BatchID and its items as sent (each judged on its own), with the log that carries it. */
export interface SubmitBulkInput {
  merchant: IntakeMerchant;
  batchId: string;
  payouts: readonly unknown[];
  log: Logger;
}

/** A batch as it stands: each item's payout, or the error body it was refused with. */
export interface BulkBatchState {
  batchId: string;
  items: BulkItemState[];
}

export type BulkItemState =
  { index: number; payout: PayoutSummary } | { index: number; refusal: Record<string, unknown> };

/**
 * Items handed to the accepter at a time. The accepter gives up on an instruction that waits longer than
 * its deadline for a statement (so a stuck database answers 503 promptly); all 5,000 items at once would
 * queue behind some twenty-five statements of one merchant and could pass that deadline on a busy
 * database, while 500 are two or three statements. docs/api.md, "Bulk payouts".
 */
const ACCEPT_CHUNK = 500;

/** What a single payout request can be refused with before a payout exists; any other error fails the batch. */
const ITEM_REFUSALS: readonly ErrorCode[] = ['BAD_REQUEST', 'VALIDATION_FAILED', 'TRANSACTION_ID_CONFLICT'];

/**
 * Accepts a merchant's batch (docs/api.md, "Bulk payouts"). A BatchID seen before answers that batch as it
 * now stands, or 409 if the items differ. Otherwise every item goes through the single endpoint's own path,
 * in order: the same schemas, the same merchant limit, the same accepter (which coalesces the items into a
 * few `accept_payouts` statements) and the same replay and conflict rules per TransactionID. The accepted
 * payouts' jobs are queued together, and the batch is recorded with which payout each item became.
 *
 * Nothing is lost under faults: if an item cannot be answered (the database or the accepter unavailable),
 * the batch is not recorded and the request fails with 503. The items already accepted are ordinary
 * payouts; the merchant's retry of the same batch finds them by TransactionID and answers them as replays.
 */
export async function submitBulkPayout(deps: SubmitBulkDeps, input: SubmitBulkInput): Promise<BulkBatchState> {
  const { merchant, batchId, payouts, log } = input;
  const digest = bulkItemsDigest(payouts);
  const known = await findBatchWithDigest(deps, input, digest);
  if (known) return known;

  const items: BulkItemState[] = [];
  for (let start = 0; start < payouts.length; start += ACCEPT_CHUNK) {
    const chunk = payouts.slice(start, start + ACCEPT_CHUNK);
    // A chunk's items are handed to the accepter in one turn, in item order, so it reserves them in that
    // order (and coalesces them into a few statements); the next chunk goes once this one is answered.
    const answers = await Promise.allSettled(
      chunk.map(async (item, offset): Promise<BulkItemState> => {
        const index = start + offset;
        try {
          return { index, payout: await recordPayout(deps, { merchant, payout: parseBulkItem(item), log }) };
        } catch (error) {
          if (isAppError(error) && ITEM_REFUSALS.includes(error.code)) return { index, refusal: errorBody(error) };
          throw error;
        }
      }),
    );
    const failure = answers.find((a) => a.status === 'rejected');
    if (failure) throw failure.reason;
    items.push(...answers.map((a) => (a as PromiseFulfilledResult<BulkItemState>).value));
  }

  queueExecution(deps, log, waitingForJob(items));
  const recorded = await recordBulkBatch(deps.db, {
    merchantId: merchant.id,
    batchId,
    itemsDigest: digest,
    items: items.map((i): BulkItemRecord => ('payout' in i ? { index: i.index, payoutId: i.payout.id } : i)),
  });
  if (recorded) {
    log.info({ batchId, total: items.length }, 'bulk batch accepted');
    return { batchId, items };
  }
  // A twin of this request recorded the batch first: answer what it recorded (or 409 if it differs).
  const twin = await findBatchWithDigest(deps, input, digest);
  if (!twin) throw new AppError('INTERNAL', `bulk batch ${batchId} neither recorded nor found`, { operational: false });
  return twin;
}

/** A merchant's batch as it now stands, or null if the merchant has no batch with this BatchID. */
export async function findBulkBatchState(
  db: PrismaClient,
  merchantId: number,
  batchId: string,
): Promise<BulkBatchState | null> {
  const batch = await findBulkBatch(db, merchantId, batchId);
  return batch && stateOf(batch);
}

function stateOf(batch: BulkBatchNow): BulkBatchState {
  return {
    batchId: batch.batchId,
    items: batch.items.map((i) =>
      i.payout ? { index: i.index, payout: i.payout } : { index: i.index, refusal: i.refusal },
    ),
  };
}

async function findBatchWithDigest(
  deps: SubmitBulkDeps,
  { merchant, batchId, log }: SubmitBulkInput,
  digest: string,
): Promise<BulkBatchState | null> {
  const batch = await findBulkBatch(deps.db, merchant.id, batchId);
  if (!batch) return null;
  if (batch.itemsDigest !== digest) {
    // The contract's 409, as for a TransactionID reused for a different payout.
    throw new AppError('TRANSACTION_ID_CONFLICT', `BatchID ${batchId} is already used for a different batch`, {
      details: { BatchID: batchId },
    });
  }
  log.info({ batchId, total: batch.items.length }, 'bulk batch replayed');
  const state = stateOf(batch);
  // As for a single replay: a payout still waiting for its job gets it queued again (harmless: the job id
  // is the payout's), which rescues a job lost between commit and queue.
  queueExecution(deps, log, waitingForJob(state.items));
  return state;
}

function waitingForJob(items: readonly BulkItemState[]): PayoutSummary[] {
  return items.flatMap((i) => ('payout' in i && i.payout.state === 'ACCEPTED' ? [i.payout] : []));
}

/**
 * The items' digest: SHA-256 of the Payouts array written back losslessly (numbers by their exact
 * literal), so a retry of the same request matches and any changed member does not.
 */
export function bulkItemsDigest(payouts: readonly unknown[]): string {
  return createHash('sha256').update(stringifyJson(payouts)).digest('hex');
}
