import type { BankName } from '@payout/domain';
import type { BankRails, RailAdapter } from '@payout/rails';

/** The configured banks' adapters, as the use cases that ask a bank about a payout need them. */
export type PayoutRails = Pick<BankRails, 'banks' | 'rail'>;

/**
 * The adapter of the bank a payout was sent to: every later step about a payout asks its own bank
 * (docs/banks.md). A payout never sent (`bank` null) is asked at the first configured bank, which answers
 * that it does not know it.
 */
export function railOfPayout(rails: PayoutRails, bank: BankName | null | undefined): RailAdapter {
  const first = rails.banks[0];
  if (!bank && !first) throw new Error('no bank is configured (BANKS, docs/banks.md)');
  return rails.rail(bank ?? first!.name);
}
