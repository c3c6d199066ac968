import type { FailureReason, PayoutMode, PayoutState, PayoutStatus } from '@payout/domain';
import { sql, sqlRows, type PrismaClientOrTransaction } from '../client.js';
import type { PayoutSummary } from '@payout/domain';

/** One item of a batch as recorded: the payout it became, or the answer it was refused with. */
export type BulkItemRecord = { index: number; payoutId: bigint } | { index: number; refusal: Record<string, unknown> };

/** A new batch, once every item was answered. */
export interface NewBulkBatch {
  merchantId: number;
  batchId: string;
  itemsDigest: string;
  items: readonly BulkItemRecord[];
}

/** One item of a recorded batch as it stands now. */
export type BulkItemNow =
  | { index: number; payout: PayoutSummary; refusal: null }
  | { index: number; payout: null; refusal: Record<string, unknown> };

/** A recorded batch with each item's payout as it stands now, in item order. */
export interface BulkBatchNow {
  batchId: string;
  itemsDigest: string;
  items: BulkItemNow[];
}

/**
 * Records a batch and its item → payout mapping in one statement. Returns false, recording nothing, when
 * the merchant already has a batch with this BatchID (a concurrent twin finished first): the caller then
 * answers the batch that was recorded.
 */
export async function recordBulkBatch(db: PrismaClientOrTransaction, batch: NewBulkBatch): Promise<boolean> {
  const items = JSON.stringify(
    batch.items.map((item) =>
      'payoutId' in item
        ? { item_index: item.index, payout_id: item.payoutId.toString(), refusal: null }
        : { item_index: item.index, payout_id: null, refusal: item.refusal },
    ),
  );
  const rows = await sqlRows<{ recorded: number }>(
    db,
    sql`
    WITH batch AS (
      INSERT INTO bulk_batches (merchant_id, batch_id, items_digest, total)
      VALUES (${batch.merchantId}, ${batch.batchId}, ${batch.itemsDigest}, ${batch.items.length})
      ON CONFLICT (merchant_id, batch_id) DO NOTHING
      RETURNING id
    ), items AS (
      INSERT INTO bulk_batch_items (batch_id, item_index, payout_id, refusal)
      SELECT batch.id, i.item_index, i.payout_id, i.refusal
        FROM batch, jsonb_to_recordset(${items}::jsonb) AS i(item_index integer, payout_id bigint, refusal jsonb)
    )
    SELECT count(*)::int AS recorded FROM batch`,
  );
  return rows[0]?.recorded === 1;
}

interface BatchItemRow {
  batch_id: string;
  items_digest: string;
  item_index: number;
  refusal: Record<string, unknown> | null;
  id: bigint | null;
  merchant_id: number | null;
  transaction_id: string | null;
  mode: PayoutMode | null;
  amount_paise: bigint | null;
  ack_no: string | null;
  state: PayoutState | null;
  status: PayoutStatus | null;
  failure_reason: FailureReason | null;
  bank_reference: string | null;
  beneficiary_account: string | null;
  beneficiary_ifsc: string | null;
  beneficiary_name: string | null;
  scheduled_at: Date | null;
}

/** A merchant's batch by its BatchID, each item with its payout as it stands now; another merchant's is never found. */
export async function findBulkBatch(
  db: PrismaClientOrTransaction,
  merchantId: number,
  batchId: string,
): Promise<BulkBatchNow | null> {
  // One statement for up to 5,000 items: the batch, its items in order, and each item's payout.
  const rows = await sqlRows<BatchItemRow>(
    db,
    sql`
    SELECT b.batch_id, b.items_digest, i.item_index, i.refusal,
           p.id, p.merchant_id, p.transaction_id, p.mode::text AS mode, p.amount_paise, p.ack_no,
           p.state::text AS state, p.status::text AS status, p.failure_reason::text AS failure_reason,
           p.bank_reference, p.beneficiary_account, p.beneficiary_ifsc, p.beneficiary_name,
           p.scheduled_at
      FROM bulk_batches b
      JOIN bulk_batch_items i ON i.batch_id = b.id
      LEFT JOIN payouts p ON p.id = i.payout_id
     WHERE b.merchant_id = ${merchantId} AND b.batch_id = ${batchId}
     ORDER BY i.item_index`,
  );
  const first = rows[0];
  if (!first) return null;
  return {
    batchId: first.batch_id,
    itemsDigest: first.items_digest,
    items: rows.map((row): BulkItemNow => {
      if (row.id === null) return { index: row.item_index, payout: null, refusal: row.refusal ?? {} };
      return {
        index: row.item_index,
        refusal: null,
        payout: {
          id: row.id,
          merchantId: row.merchant_id!,
          transactionId: row.transaction_id!,
          mode: row.mode!,
          amountPaise: row.amount_paise!,
          ackNo: row.ack_no!,
          state: row.state!,
          status: row.status!,
          failureReason: row.failure_reason,
          bankReference: row.bank_reference,
          account: row.beneficiary_account!,
          ifsc: row.beneficiary_ifsc,
          name: row.beneficiary_name!,
          scheduledAt: row.scheduled_at,
        },
      };
    }),
  };
}
