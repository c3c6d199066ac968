import type { Paise } from './money.js';

/**
 * The double-entry rules. Every money movement is one entry of two legs that sum to zero; each kind
 * moves money between the same two of a merchant's accounts, always in the same direction (the database
 * CHECKs the same table).
 */
type LedgerAccount = 'FUNDING' | 'MAIN_WALLET' | 'RESERVED' | 'PAID_OUT';
export type LedgerEntryKind =
  | 'WALLET_CREDIT'
  | 'COLLECTION_CREDIT'
  | 'PAYOUT_RESERVE'
  | 'PAYOUT_SETTLE'
  | 'PAYOUT_RELEASE'
  | 'PAYOUT_REVERSAL'
  | 'PAYOUT_LATE_DEBIT';

interface LedgerLeg {
  account: LedgerAccount;
  amountPaise: Paise;
}

const MOVES: Record<LedgerEntryKind, { from: LedgerAccount; to: LedgerAccount }> = {
  WALLET_CREDIT: { from: 'FUNDING', to: 'MAIN_WALLET' },
  COLLECTION_CREDIT: { from: 'FUNDING', to: 'MAIN_WALLET' },
  PAYOUT_RESERVE: { from: 'MAIN_WALLET', to: 'RESERVED' },
  PAYOUT_SETTLE: { from: 'RESERVED', to: 'PAID_OUT' },
  PAYOUT_RELEASE: { from: 'RESERVED', to: 'MAIN_WALLET' },
  // A paid payout came back from the beneficiary's bank: the money returns to the main wallet.
  PAYOUT_REVERSAL: { from: 'PAID_OUT', to: 'MAIN_WALLET' },
  // An operator resolves "paid at the bank but FAILED here" by charging the merchant after all.
  PAYOUT_LATE_DEBIT: { from: 'MAIN_WALLET', to: 'PAID_OUT' },
};

/** Every kind of entry, in the order the ledger's rules list them. */
export const LEDGER_ENTRY_KINDS = Object.keys(MOVES) as LedgerEntryKind[];

/** The two legs of an entry of `kind` moving `amount` (which must be positive). */
export function ledgerLegs(kind: LedgerEntryKind, amount: Paise): [LedgerLeg, LedgerLeg] {
  if (amount <= 0n) throw new RangeError(`a ledger entry moves a positive amount, not ${amount}`);
  const { from, to } = MOVES[kind];
  return [
    { account: from, amountPaise: -amount },
    { account: to, amountPaise: amount },
  ];
}

/** How a wallet's two columns change when an entry of `kind` is posted. */
export function walletDelta(kind: LedgerEntryKind, amount: Paise): { available: Paise; reserved: Paise } {
  let available = 0n;
  let reserved = 0n;
  for (const leg of ledgerLegs(kind, amount)) {
    if (leg.account === 'MAIN_WALLET') available += leg.amountPaise;
    if (leg.account === 'RESERVED') reserved += leg.amountPaise;
  }
  return { available, reserved };
}
