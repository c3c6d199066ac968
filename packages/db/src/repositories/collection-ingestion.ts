import type { PrismaClient } from '../client.js';
import { recordPayinConflict } from './discrepancy-repository.js';
import type { CollectionSummary } from './collection-repository.js';

/** What the collection provider reports: a collection as recorded, of one merchant (our Ack_no used only when new). */
export type CollectionReport = CollectionSummary & { merchantId: number };

/**
 * created: first report; updated: a PENDING collection reached SUCCESS or FAILED; unchanged: a repeat of
 * what is already recorded (or a late PENDING after the outcome); conflict: the report contradicts the
 * record (see {@link CollectionConflict}) and nothing was changed.
 */
export type CollectionOutcome = 'created' | 'updated' | 'unchanged' | 'conflict';

/**
 * What a conflicting report contradicts: the amount or the mode (fixed when the pay-in began), the payer
 * (once known), the outcome (SUCCESS and FAILED are final), or the bank reference of a SUCCESS.
 */
export type CollectionConflict = 'amount' | 'mode' | 'payer account' | 'outcome' | 'bank reference';

export interface RecordedCollection {
  outcome: CollectionOutcome;
  /** Set when outcome is conflict. */
  conflict?: CollectionConflict;
  /** True when this call credited the main wallet. */
  credited: boolean;
  id: bigint;
  ackNo: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
}

interface CurrentCollection {
  id: bigint;
  ack_no: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  mode: 'INTENT' | 'COLLECT' | 'QR';
  amount_paise: bigint;
  payer_account: string;
  bank_reference: string;
  created: boolean;
}

/**
 * What, if anything, a report contradicts in the record. Details the provider fills in later (the payer of
 * an INTENT pay-in, the bank reference) are no contradiction while the record has them empty, nor when the
 * report leaves them empty.
 */
function conflictOf(current: CurrentCollection, report: CollectionReport): CollectionConflict | undefined {
  const differs = (recorded: string, reported: string) => recorded !== '' && reported !== '' && recorded !== reported;
  if (current.amount_paise !== report.amountPaise) return 'amount';
  if (current.mode !== report.mode) return 'mode';
  if (differs(current.payer_account, report.payerAccount)) return 'payer account';
  if (current.status !== 'PENDING' && report.status !== 'PENDING' && current.status !== report.status) {
    return 'outcome';
  }
  if (current.status === 'SUCCESS' && report.status === 'SUCCESS') {
    if (differs(current.bank_reference, report.bankReference)) return 'bank reference';
  }
  return undefined;
}

/**
 * Records what the collection provider reports about a pay-in, idempotent on merchant + TransactionID.
 * A SUCCESS credits the main wallet through the ledger (FUNDING → MAIN_WALLET) exactly once — the
 * collection row is locked while deciding, the outcome and its credit are one SQL function
 * (`settle_collection`), and the ledger's unique constraint on (collection, kind, account) backs that up.
 * A report that contradicts the record changes nothing.
 */
export async function recordCollection(db: PrismaClient, report: CollectionReport): Promise<RecordedCollection> {
  return db.$transaction(async (tx) => {
    // A concurrent first report of the same pay-in waits here on the unique index until the other commits,
    // then finds its row below.
    await tx.$executeRaw`
      INSERT INTO collections (merchant_id, transaction_id, mode, payer_account, amount_paise, bank_reference, ack_no, status)
      VALUES (${report.merchantId}, ${report.transactionId}, ${report.mode}::collection_mode, ${report.payerAccount},
              ${report.amountPaise}, ${report.bankReference}, ${report.ackNo}, 'PENDING')
      ON CONFLICT (merchant_id, transaction_id) DO NOTHING`;
    const [current] = await tx.$queryRaw<CurrentCollection[]>`
      SELECT id, ack_no, status::text AS status, mode::text AS mode, amount_paise, payer_account, bank_reference,
             (ack_no = ${report.ackNo}) AS created
        FROM collections WHERE merchant_id = ${report.merchantId} AND transaction_id = ${report.transactionId}
       FOR UPDATE`;
    if (!current) throw new Error('collection vanished inside its transaction');
    const base = { id: current.id, ackNo: current.ack_no };

    const conflict = conflictOf(current, report);
    if (conflict) {
      // Kept for an operator, not only logged: `pnpm cli discrepancy list` shows it until resolved.
      await recordPayinConflict(
        tx,
        current.id,
        reportForTheRecord(report),
        `the provider's report differs in ${conflict}`,
      );
      return { ...base, outcome: 'conflict', conflict, credited: false, status: current.status };
    }
    if (current.status !== 'PENDING') return { ...base, outcome: 'unchanged', credited: false, status: current.status };
    if (report.status === 'PENDING') {
      return { ...base, outcome: current.created ? 'created' : 'unchanged', credited: false, status: 'PENDING' };
    }

    // The outcome and its credit together: packages/db/sql/functions/settle_collection.sql.
    const [settled] = await tx.$queryRaw<{ moved: boolean }[]>`
      SELECT settle_collection(${current.id}, ${report.status}::collection_status, ${report.bankReference},
                               ${report.payerAccount}) AS moved`;
    if (!settled?.moved) throw new Error(`pay-in ${current.id} was not PENDING under its lock`);
    return {
      ...base,
      outcome: current.created ? 'created' : 'updated',
      credited: report.status === 'SUCCESS',
      status: report.status,
    };
  });
}

/** What the provider said, as stored with a conflict (amounts as strings: JSON has no bigint). */
function reportForTheRecord(report: CollectionReport): Record<string, unknown> {
  return { ...report, amountPaise: report.amountPaise.toString() };
}
