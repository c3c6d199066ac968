import { describe, expect, it } from 'vitest';
import { ledgerLegs, walletDelta, type LedgerEntryKind } from './ledger.js';

const KINDS: LedgerEntryKind[] = [
  'WALLET_CREDIT',
  'COLLECTION_CREDIT',
  'PAYOUT_RESERVE',
  'PAYOUT_SETTLE',
  'PAYOUT_RELEASE',
];

describe('ledger rules', () => {
  it.each(KINDS)('when posting %s, then the two legs sum to zero on two different accounts', (kind) => {
    const [a, b] = ledgerLegs(kind, 1234n);
    expect(a.amountPaise + b.amountPaise).toBe(0n);
    expect(a.account).not.toBe(b.account);
  });

  it('when posting a zero or negative amount, then it is refused', () => {
    expect(() => ledgerLegs('PAYOUT_RESERVE', 0n)).toThrow(RangeError);
    expect(() => ledgerLegs('PAYOUT_RESERVE', -1n)).toThrow(RangeError);
  });

  it('when a payout is reserved then settled, then the wallet ends where the reservation left it', () => {
    expect(walletDelta('PAYOUT_RESERVE', 500n)).toEqual({ available: -500n, reserved: 500n });
    expect(walletDelta('PAYOUT_SETTLE', 500n)).toEqual({ available: 0n, reserved: -500n });
  });

  it('when a payout is reserved then released, then the wallet is back where it was', () => {
    const reserve = walletDelta('PAYOUT_RESERVE', 500n);
    const release = walletDelta('PAYOUT_RELEASE', 500n);
    expect(reserve.available + release.available).toBe(0n);
    expect(reserve.reserved + release.reserved).toBe(0n);
  });

  it('when credited, then only the available balance grows', () => {
    expect(walletDelta('WALLET_CREDIT', 100n)).toEqual({ available: 100n, reserved: 0n });
  });
});
