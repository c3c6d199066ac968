import { describe, expect, it } from 'vitest';
import { bankStep, mayLeaveBank, needsExchanges, type BankExchange, type RailOutcome } from './bank-handoff.js';
import type { Circumstances } from './rail-outcome.js';

const TRUST = 1_800_000;
const submit = (at: number): BankExchange => ({ kind: 'submit', at });
const answer = (outcome: RailOutcome, at: number): BankExchange => ({ kind: 'answer', outcome, at });
const open: Circumstances = { deadlinePassed: false, checksLeft: 5, refused: 'never' };

describe('mayLeaveBank: the answers that let a payout go to another bank', () => {
  it('when the bank refused the only submit it was sent, then the payout may leave it', () => {
    expect(mayLeaveBank([submit(0), answer('REFUSED', 10)], TRUST)).toEqual({
      may: true,
      because: 'refused-before-acceptance',
    });
  });

  it('when the bank refused a resubmit, then it may hold the reference (a duplicate): the payout stays', () => {
    const exchanges = [submit(0), answer('UNKNOWN', 10), answer('NOT_FOUND', 100), submit(110), answer('REFUSED', 120)];
    expect(mayLeaveBank(exchanges, TRUST)).toMatchObject({ may: false, because: 'refused-resubmit' });
  });

  it('when the status API says NOT_FOUND a trust age after the last submit, then the payout may leave; sooner, it stays until then', () => {
    expect(mayLeaveBank([submit(0), answer('UNKNOWN', 10), answer('NOT_FOUND', TRUST)], TRUST)).toEqual({
      may: true,
      because: 'not-found-long-after-submit',
    });
    expect(mayLeaveBank([submit(0), answer('UNKNOWN', 10), answer('NOT_FOUND', TRUST - 1)], TRUST)).toEqual({
      may: false,
      because: 'not-found-too-soon',
      trustedAt: TRUST,
    });
    // The age counts from the last submit, not the first.
    const resubmitted = [submit(0), answer('NOT_FOUND', 60), submit(TRUST), answer('NOT_FOUND', TRUST + 60)];
    expect(mayLeaveBank(resubmitted, TRUST)).toMatchObject({ may: false, trustedAt: 2 * TRUST });
  });

  it('when the bank ever said it took the payout, or its last word was a time-out, a 5xx or a lost reply, then the payout stays', () => {
    for (const took of ['PENDING', 'SUCCESS', 'FAILED', 'REVERSED'] as const) {
      expect(mayLeaveBank([submit(0), answer(took, 10), answer('NOT_FOUND', 2 * TRUST)], TRUST)).toMatchObject({
        may: false,
        because: 'bank-took-it',
      });
    }
    expect(mayLeaveBank([submit(0), answer('UNKNOWN', 10)], TRUST)).toMatchObject({ may: false, because: 'undecided' });
    expect(mayLeaveBank([], TRUST)).toMatchObject({ may: false, because: 'nothing-sent' });
  });
});

describe('bankStep: the rule book with several banks', () => {
  const notFound = { outcome: 'NOT_FOUND' } as const;

  it('when the bank still serves, then it is the rule book of one bank (a NOT_FOUND is sent again to the same bank)', () => {
    expect(needsExchanges(notFound, { serving: true })).toBe(false);
    expect(bankStep(notFound, open, { serving: true }, TRUST)).toEqual({ kind: 'resubmit' });
  });

  it('when the bank no longer serves and said its definitive no, then the payout moves', () => {
    const exchanges = [submit(0), answer('UNKNOWN', 10), answer('NOT_FOUND', TRUST + 5)];
    expect(bankStep(notFound, open, { serving: false, exchanges }, TRUST)).toEqual({
      kind: 'move-to-another-bank',
      because: 'not-found-long-after-submit',
    });
    const refused = { outcome: 'REFUSED', detail: 'HTTP 422' } as const;
    expect(
      bankStep(refused, open, { serving: false, exchanges: [submit(0), answer('REFUSED', 5)] }, TRUST),
    ).toMatchObject({ kind: 'move-to-another-bank' });
  });

  it('when the bank no longer serves and its NOT_FOUND is too early to believe, then it is asked again once it can be — not resubmitted', () => {
    const exchanges = [submit(0), answer('UNKNOWN', 10), answer('NOT_FOUND', 60_000)];
    expect(bankStep(notFound, open, { serving: false, exchanges }, TRUST)).toEqual({
      kind: 'ask-when-trusted',
      at: TRUST,
    });
    expect(bankStep(notFound, { ...open, checksLeft: 0 }, { serving: false, exchanges }, TRUST)).toEqual({
      kind: 'manual-review',
      why: 'checks-used-up',
    });
  });

  it('when the bank no longer serves but said anything else, then the rule book of one bank decides (the payout stays)', () => {
    const unknown = { outcome: 'UNKNOWN', detail: 'HTTP 503' } as const;
    expect(bankStep(unknown, open, { serving: false }, TRUST)).toEqual({
      kind: 'inquire-later',
      state: 'OUTCOME_UNKNOWN',
    });
    expect(bankStep({ outcome: 'PENDING' }, open, { serving: false }, TRUST)).toEqual({
      kind: 'inquire-later',
      state: 'AWAITING_RAIL',
    });
  });
});
