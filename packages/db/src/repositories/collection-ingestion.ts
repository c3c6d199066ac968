import type { Paise } from '@payout/domain';
import type { PrismaClient } from '../client.js';

export interface CollectionReport {
  merchantId: number;
  transactionId: string;
  mode: 'INTENT' | 'COLLECT' | 'QR';
  payerAccount: string;
  amountPaise: Paise;
  bankReference: string;
  /** Used only when the collection is new. */
  ackNo: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
}

/**
 * created: first report; updated: a PENDING collection reached SUCCESS or FAILED; unchanged: a repeat of
 * what is already recorded (or a late PENDING after the outcome); conflict: the report contradicts the
 * record (another amount, or the opposite final outcome) and nothing was changed.
 */
export type CollectionOutcome = 'created' | 'updated' | 'unchanged' | 'conflict';

export interface RecordedCollection {
  outcome: CollectionOutcome;
  /** True when this call credited the main wallet. */
  credited: boolean;
  id: bigint;
  ackNo: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
}

/**
 * Records what the collection provider reports about a pay-in, idempotent on merchant + TransactionID.
 * A SUCCESS credits the main wallet through the ledger (FUNDING → MAIN_WALLET) exactly once — the
 * collection row is locked while deciding, and the ledger's unique constraint on (collection, kind,
 * account) backs that up.
 */
export async function recordCollection(db: PrismaClient, report: CollectionReport): Promise<RecordedCollection> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO collections (merchant_id, transaction_id, mode, payer_account, amount_paise, bank_reference, ack_no, status)
      VALUES (${report.merchantId}, ${report.transactionId}, ${report.mode}::collection_mode, ${report.payerAccount},
              ${report.amountPaise}, ${report.bankReference}, ${report.ackNo}, 'PENDING')
      ON CONFLICT (merchant_id, transaction_id) DO NOTHING`;
    const [current] = await tx.$queryRaw<
      { id: bigint; ack_no: string; status: 'PENDING' | 'SUCCESS' | 'FAILED'; amount_paise: bigint; created: boolean }[]
    >`
      SELECT id, ack_no, status::text AS status, amount_paise, (ack_no = ${report.ackNo}) AS created
        FROM collections WHERE merchant_id = ${report.merchantId} AND transaction_id = ${report.transactionId}
       FOR UPDATE`;
    if (!current) throw new Error('collection vanished inside its transaction');
    const base = { id: current.id, ackNo: current.ack_no };

    if (current.amount_paise !== report.amountPaise) {
      return { ...base, outcome: 'conflict', credited: false, status: current.status };
    }
    if (current.status !== 'PENDING') {
      const outcome = report.status === current.status || report.status === 'PENDING' ? 'unchanged' : 'conflict';
      return { ...base, outcome, credited: false, status: current.status };
    }
    if (report.status === 'PENDING') {
      return { ...base, outcome: current.created ? 'created' : 'unchanged', credited: false, status: 'PENDING' };
    }

    await tx.$executeRaw`
      UPDATE collections
         SET status = ${report.status}::collection_status, bank_reference = ${report.bankReference},
             payer_account = ${report.payerAccount}, mode = ${report.mode}::collection_mode,
             credited_at = CASE WHEN ${report.status} = 'SUCCESS' THEN now() END, updated_at = now()
       WHERE id = ${current.id}`;
    if (report.status === 'SUCCESS') {
      await tx.$executeRaw`
        INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, collection_id)
        VALUES (${report.merchantId}, 'COLLECTION_CREDIT', 'FUNDING', ${-report.amountPaise}, ${current.id}),
               (${report.merchantId}, 'COLLECTION_CREDIT', 'MAIN_WALLET', ${report.amountPaise}, ${current.id})`;
      await tx.$executeRaw`
        INSERT INTO wallets (merchant_id, available_paise) VALUES (${report.merchantId}, ${report.amountPaise})
        ON CONFLICT (merchant_id) DO UPDATE
          SET available_paise = wallets.available_paise + EXCLUDED.available_paise, updated_at = now()`;
    }
    return {
      ...base,
      outcome: current.created ? 'created' : 'updated',
      credited: report.status === 'SUCCESS',
      status: report.status,
    };
  });
}
