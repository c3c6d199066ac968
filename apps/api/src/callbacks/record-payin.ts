import { AppError, newAckNo } from '@payout/domain';
import {
  findCollectionByTransactionId,
  findMerchantByMid,
  recordCollection,
  type CollectionSummary,
  type PrismaClient,
  type RecordedCollection,
} from '@payout/db';
import { maskAccount, type Logger } from '@payout/telemetry';
import type { PayinCallback } from './payin-callback-schema.js';

export interface RecordedPayin {
  result: RecordedCollection;
  /** The collection as it now stands (what the pay-in status lookup answers). */
  collection: CollectionSummary;
}

/**
 * Records a pay-in the collection provider reported: find the merchant, record the report (idempotent on
 * merchant + TransactionID; a SUCCESS credits the main wallet once), and answer the collection as it now
 * stands. A suspended merchant's pay-ins are still recorded: the money has arrived either way. A report
 * that contradicts the record is a 409 and changes nothing.
 */
export async function recordPayin(db: PrismaClient, log: Logger, report: PayinCallback): Promise<RecordedPayin> {
  const merchant = await findMerchantByMid(db, report.MID);
  if (!merchant) throw AppError.validation([{ field: 'MID', message: 'MID is not a known merchant' }]);

  const result = await recordCollection(db, {
    merchantId: merchant.id,
    transactionId: report.TransactionID,
    mode: report.mode,
    payerAccount: report.account,
    amountPaise: report.Amount,
    bankReference: report.Bankriff,
    ackNo: newAckNo(),
    status: report.status,
  });
  const context = {
    mid: report.MID,
    transactionId: report.TransactionID,
    ackNo: result.ackNo,
    reported: report.status,
    payer: report.account ? maskAccount(report.account) : '',
  };
  if (result.outcome === 'conflict') {
    log.warn({ ...context, recorded: result.status, conflict: result.conflict }, 'pay-in report refused: conflict');
    throw new AppError(
      'TRANSACTION_ID_CONFLICT',
      `TransactionID ${report.TransactionID} is already recorded for this merchant with a different ${result.conflict ?? 'report'}`,
      { details: { TransactionID: report.TransactionID } },
    );
  }
  log.info({ ...context, outcome: result.outcome, credited: result.credited }, 'pay-in recorded');

  const collection = await findCollectionByTransactionId(db, merchant.id, report.TransactionID);
  if (!collection) throw new Error('a recorded collection could not be read back');
  return { result, collection };
}
