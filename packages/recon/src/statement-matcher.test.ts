import { describe, expect, it } from 'vitest';
import type { StatementLine } from './statement-csv.js';
import { breakOf, countItems, matchStatement, RECON_CLASSES, type BookPayout } from './statement-matcher.js';

const DAY = '2026-11-23';
let lineNumber = 1;
const line = (
  reference: string,
  type: 'DEBIT' | 'RETURN',
  amountPaise = 10100n,
  utr = `U${reference}`,
): StatementLine => ({
  lineNumber: ++lineNumber,
  reference,
  utr,
  amountPaise,
  type,
  valueDate: DAY,
});
const payout = (id: number, state: BookPayout['state'], extra: Partial<BookPayout> = {}): BookPayout => ({
  id: BigInt(id),
  ackNo: `P${id}`,
  state,
  amountPaise: 10100n,
  bankReference: state === 'SUCCESS' || state === 'REVERSED' ? `UP${id}` : null,
  settledOn: state === 'SUCCESS' || state === 'FAILED' || state === 'REVERSED' ? DAY : null,
  ...extra,
});

describe('matchStatement', () => {
  it('when a statement holds one case of each kind, then each is classified, and only the unambiguous carry an action', () => {
    const books = [
      payout(1, 'SUCCESS'),
      payout(2, 'FAILED'),
      payout(3, 'AWAITING_RAIL'),
      payout(4, 'SUCCESS'),
      payout(5, 'SUCCESS'),
      payout(6, 'SUCCESS'),
      payout(7, 'REVERSED'),
      payout(8, 'ACCEPTED'),
    ];
    const lines = [
      line('P1', 'DEBIT'),
      line('P2', 'DEBIT'),
      line('P3', 'DEBIT', 10100n, 'BANKUTR3'),
      line('P5', 'DEBIT', 9999n),
      line('NOBODY', 'DEBIT'),
      line('P6', 'DEBIT'),
      line('P6', 'RETURN', 10100n, 'RET6'),
      line('P7', 'DEBIT'),
      line('P7', 'RETURN'),
      line('P1', 'DEBIT'),
      line('P8', 'DEBIT'),
    ];

    const items = matchStatement(lines, [DAY], books);

    expect(items.map((i) => [i.reference, i.class, i.action?.kind ?? null, i.resolved])).toEqual([
      ['P1', 'matched', null, true],
      ['P2', 'paid_but_failed_here', 'record-discrepancy', false],
      ['P3', 'pending_here_paid_at_bank', 'settle-success', false],
      ['P5', 'amount_mismatch', null, false],
      ['NOBODY', 'unknown_reference', null, false],
      ['P6', 'matched', null, true],
      ['P6', 'return', 'reverse', false],
      ['P7', 'matched', null, true],
      ['P7', 'return', null, true],
      ['P1', 'duplicate_line', null, false],
      ['P8', 'pending_here_paid_at_bank', null, false],
      ['P4', 'success_here_missing_at_bank', null, false],
    ]);
    expect(items[2]!.action).toEqual({ kind: 'settle-success', payoutId: 3n, utr: 'BANKUTR3' });
    expect(items[6]!.action).toEqual({ kind: 'reverse', payoutId: 6n, utr: 'RET6' });
    expect(countItems(items, 0)).toEqual({
      matched: 3,
      paid_but_failed_here: 1,
      success_here_missing_at_bank: 1,
      pending_here_paid_at_bank: 2,
      amount_mismatch: 1,
      unknown_reference: 1,
      return: 2,
      duplicate_line: 1,
      applied: 0,
    });
    expect(Object.keys(countItems([], 0))).toEqual([...RECON_CLASSES, 'applied']);
  });

  it('when a payout was settled on another day, then its absence from this statement is no break', () => {
    const items = matchStatement([], [DAY], [payout(1, 'SUCCESS', { settledOn: '2026-11-22' })]);
    expect(items).toEqual([]);
  });

  it('when money comes back for a payout that failed here, then it is a return kept for a person', () => {
    const [item] = matchStatement([line('P2', 'RETURN')], [DAY], [payout(2, 'FAILED')]);
    expect(item).toMatchObject({
      class: 'return',
      action: { kind: 'record-discrepancy', payoutId: 2n, discrepancy: 'REVERSAL_OF_UNPAID' },
      resolved: false,
    });
  });

  it('when a break is shown, then it says what each side says', () => {
    const [item] = matchStatement([line('P5', 'DEBIT', 9999n, 'UTR5')], [DAY], [payout(5, 'SUCCESS')]);
    expect(breakOf(item!)).toEqual({
      kind: 'amount_mismatch',
      reference: 'P5',
      bank: { line: item!.line!.lineNumber, utr: 'UTR5', amount: '99.99', type: 'DEBIT', value_date: DAY },
      books: { state: 'SUCCESS', amount: '101.00', utr: 'UP5', settled_on: DAY },
    });
  });
});
