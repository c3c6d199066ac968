import {
  creditWallet as creditWalletInLedger,
  CreditReferenceConflictError,
  findMerchantByMid,
  type PrismaClient,
} from '@payout/db';
import type { Paise } from '@payout/domain';
import { audit } from './audit.js';

export type CreditWalletOutcome =
  | { kind: 'credited'; availablePaise: Paise }
  | { kind: 'already-credited'; availablePaise: Paise }
  | { kind: 'reference-conflict'; creditedPaise: Paise }
  | { kind: 'no-merchant' };

/**
 * Credits a merchant's main wallet through the ledger, idempotent on the reference (see creditWallet in
 * packages/db), with its audit entry in the same transaction; a repeated reference changes nothing and
 * writes nothing.
 */
export async function creditWallet(
  deps: { db: PrismaClient },
  input: { mid: string; amountPaise: Paise; reference: string; actor: string; reason: string },
): Promise<CreditWalletOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  try {
    return await deps.db.$transaction(async (tx) => {
      const result = await creditWalletInLedger(tx, merchant.id, input.amountPaise, input.reference);
      if (!result.credited) return { kind: 'already-credited', availablePaise: result.availablePaise } as const;
      await audit(tx, input, 'wallet.credit', {
        merchantId: merchant.id,
        detail: { amountPaise: input.amountPaise, reference: input.reference },
      });
      return { kind: 'credited', availablePaise: result.availablePaise } as const;
    });
  } catch (error) {
    if (error instanceof CreditReferenceConflictError) {
      return { kind: 'reference-conflict', creditedPaise: error.creditedPaise };
    }
    throw error;
  }
}
