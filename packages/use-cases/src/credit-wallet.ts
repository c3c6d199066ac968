import {
  creditWallet as creditWalletInLedger,
  CreditReferenceConflictError,
  findMerchantByMid,
  findWallet,
  findWalletCredit,
  type PrismaClient,
} from '@payout/db';
import { formatRupees, type Paise } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf } from './approvals/person.js';

export type PlanWalletCreditOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  | { kind: 'already-credited'; availablePaise: Paise }
  | { kind: 'reference-conflict'; creditedPaise: Paise }
  | { kind: 'no-merchant' };

interface WalletCreditParams {
  merchantId: number;
  mid: string;
  amountPaise: string;
  reference: string;
}

/**
 * A credit to a merchant's main wallet, checked and described for its approver: the merchant exists, the
 * reference is unused (a repeat of the same credit is reported as done, another amount as a conflict), and
 * the balance before and after.
 */
export async function planWalletCredit(
  deps: { db: PrismaClient },
  input: { mid: string; amountPaise: Paise; reference: string },
): Promise<PlanWalletCreditOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  const earlier = await findWalletCredit(deps.db, merchant.id, input.reference);
  const availablePaise = (await findWallet(deps.db, merchant.id))?.availablePaise ?? 0n;
  if (earlier === input.amountPaise) return { kind: 'already-credited', availablePaise };
  if (earlier !== null) return { kind: 'reference-conflict', creditedPaise: earlier };
  const params: WalletCreditParams = {
    merchantId: merchant.id,
    mid: merchant.mid,
    amountPaise: input.amountPaise.toString(),
    reference: input.reference,
  };
  return {
    kind: 'planned',
    planned: {
      action: 'wallet.credit',
      merchantId: merchant.id,
      params: { ...params },
      preview: {
        summary: `Credit ${formatRupees(input.amountPaise)} to the main wallet of ${merchant.mid} (reference ${input.reference})`,
        mid: merchant.mid,
        reference: input.reference,
        amount: formatRupees(input.amountPaise),
        availableBefore: formatRupees(availablePaise),
        availableAfter: formatRupees(availablePaise + input.amountPaise),
      },
    },
  };
}

/**
 * The approved credit: through the ledger, once per reference, in the approver's transaction. A reference
 * used meanwhile (by another request, or the same one in a race) refuses the whole approval.
 */
export const walletCredit = {
  action: 'wallet.credit',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as WalletCreditParams;
    const amountPaise = BigInt(params.amountPaise);
    try {
      const result = await creditWalletInLedger(tx, params.merchantId, amountPaise, params.reference);
      if (!result.credited) return { kind: 'refused', why: `reference ${params.reference} was credited meanwhile` };
      await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'wallet.credit', {
        merchantId: params.merchantId,
        detail: {
          amountPaise,
          reference: params.reference,
          approvalId: request.id,
          requestedBy: request.maker,
          approvedBy: approver.username,
        },
      });
      return {
        kind: 'executed',
        outcome: { credited: formatRupees(amountPaise), available: formatRupees(result.availablePaise) },
      };
    } catch (error) {
      if (error instanceof CreditReferenceConflictError) {
        return {
          kind: 'refused',
          why: `reference ${params.reference} was used meanwhile for ${formatRupees(error.creditedPaise)}`,
        };
      }
      throw error;
    }
  },
} satisfies MoneyAction;
