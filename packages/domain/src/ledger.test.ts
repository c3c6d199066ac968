import { describe, expect, it } from 'vitest';
import { LEDGER_ENTRY_KINDS, ledgerLegs, walletDelta } from './ledger.js';

const KINDS = LEDGER_ENTRY_KINDS;

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

  it('when a settled payout is reversed, then the amount returns to the available balance and nothing is reserved', () => {
    expect(ledgerLegs('PAYOUT_REVERSAL', 500n)).toEqual([
      { account: 'PAID_OUT', amountPaise: -500n },
      { account: 'MAIN_WALLET', amountPaise: 500n },
    ]);
    expect(walletDelta('PAYOUT_REVERSAL', 500n)).toEqual({ available: 500n, reserved: 0n });
  });

  it('when a merchant is charged late for a payout the bank paid, then the available balance shrinks', () => {
    expect(walletDelta('PAYOUT_LATE_DEBIT', 500n)).toEqual({ available: -500n, reserved: 0n });
  });

  it('when credited, then only the available balance grows', () => {
    expect(walletDelta('WALLET_CREDIT', 100n)).toEqual({ available: 100n, reserved: 0n });
  });
});
