import type { Paise } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';

export interface CollectionSummary {
  transactionId: string;
  mode: 'INTENT' | 'COLLECT' | 'QR';
  payerAccount: string;
  amountPaise: Paise;
  bankReference: string;
  ackNo: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
}

/** A merchant's collection (pay-in) by its TransactionID; another merchant's is never found. */
export function findCollectionByTransactionId(
  db: PrismaClientOrTransaction,
  merchantId: number,
  transactionId: string,
): Promise<CollectionSummary | null> {
  return db.collection.findUnique({
    where: { merchantId_transactionId: { merchantId, transactionId } },
    select: {
      transactionId: true,
      mode: true,
      payerAccount: true,
      amountPaise: true,
      bankReference: true,
      ackNo: true,
      status: true,
    },
  });
}
