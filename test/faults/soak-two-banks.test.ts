import { describe, expect, it } from 'vitest';
import { auditBanks } from '../../scripts/soak/bank-audit.js';
import type { BankBook } from '../../scripts/soak/bank-journal.js';
import { partOf, planBankDowntime, planFaults, TWO_BANK_FAULT_KINDS } from '../../scripts/soak/fault-schedule.js';
import type { BankRecord } from './payout-audit.js';

// The two-bank soak (docs/reliability.md, "Two banks"): its plan, and the rule it checks against both banks'
// journals — a payout goes to a second bank only after its first bank's definitive no, and is never paid by two.

function book(entries: [reference: string, status: BankRecord['status'], acceptedAt: number][]): BankBook {
  return {
    records: entries.map(([reference, status]) => ({
      reference,
      status,
      ...(status === 'SUCCESS' || status === 'REVERSED' ? { utr: `utr-${reference}` } : {}),
    })),
    paidTwice: [],
    lines: entries.length,
    acceptedAt: new Map(entries.map(([reference, , at]) => [reference, at])),
  };
}

describe('two-bank soak', () => {
  it('when planned, then the primary goes down a quarter into the load for half of it, as a 503 or a closed port by seed', () => {
    expect(planBankDowntime(42, 240_000)).toEqual({ atMs: 60_000, kind: 'bank-down', target: 0, downMs: 120_000 });
    expect(planBankDowntime(43, 60_000)).toEqual({ atMs: 15_000, kind: 'bank-down', target: 1, downMs: 30_000 });
    expect(partOf(planBankDowntime(42, 60_000))).toBe('bank:primary');
    const kinds = planFaults(42, { loadMs: 60_000, faults: 4, workers: 2, apis: 2, kinds: TWO_BANK_FAULT_KINDS }).map(
      (f) => f.kind,
    );
    expect(new Set(kinds)).toEqual(new Set(TWO_BANK_FAULT_KINDS));
  });

  it('when each reference is at one bank, then nothing is sent to two banks, and each record is the bank’s', () => {
    const audit = auditBanks(
      new Map([
        [
          'primary',
          book([
            ['A', 'SUCCESS', 1],
            ['B', 'PENDING', 2],
          ]),
        ],
        ['secondary', book([['C', 'FAILED', 3]])],
      ]),
    );
    expect(audit).toMatchObject({ sentToTwoBanks: [], paidByTwoBanks: [], movedAfterRefusal: [] });
    expect(Object.fromEntries(audit.bankOf)).toEqual({ A: 'primary', B: 'primary', C: 'secondary' });
    expect(audit.records.map((r) => [r.reference, r.status])).toEqual([
      ['A', 'SUCCESS'],
      ['B', 'PENDING'],
      ['C', 'FAILED'],
    ]);
  });

  it('when the first bank refused a reference for good and the other then paid it, then that is a move, not a breach', () => {
    const audit = auditBanks(
      new Map([
        ['primary', book([['A', 'FAILED', 1]])],
        ['secondary', book([['A', 'SUCCESS', 5]])],
      ]),
    );
    expect(audit).toMatchObject({ sentToTwoBanks: [], paidByTwoBanks: [], movedAfterRefusal: ['A'] });
    expect(audit.bankOf.get('A')).toBe('secondary');
    expect(audit.records).toEqual([{ reference: 'A', status: 'SUCCESS', utr: 'utr-A' }]);
  });

  it('when a reference the first bank still holds is at the other too, then it was sent to two banks', () => {
    const audit = auditBanks(
      new Map([
        ['primary', book([['A', 'PENDING', 1]])],
        ['secondary', book([['A', 'FAILED', 5]])],
      ]),
    );
    expect(audit.sentToTwoBanks).toEqual(['A: primary PENDING, then secondary FAILED']);
    expect(audit.paidByTwoBanks).toEqual([]);
  });

  it('when both banks paid a reference, then it was paid twice and sent to two banks, whichever came first', () => {
    const audit = auditBanks(
      new Map([
        ['primary', book([['A', 'REVERSED', 9]])],
        ['secondary', book([['A', 'SUCCESS', 4]])],
      ]),
    );
    expect(audit.paidByTwoBanks).toEqual(['A: secondary SUCCESS, then primary REVERSED']);
    expect(audit.sentToTwoBanks).toEqual(['A: secondary SUCCESS, then primary REVERSED']);
    // The audit keeps the first payer's record.
    expect(audit.bankOf.get('A')).toBe('secondary');
  });
});
