import { describe, expect, it } from 'vitest';
import type { StatementLine } from './statement-csv.js';
import {
  breakOf,
  countItems,
  matchStatement,
  planActions,
  RECON_CLASSES,
  type BookPayout,
} from './statement-matcher.js';

const DAY = '2026-11-23';
const calendar = { today: DAY };
let lineNumber = 1;
const line = (
  reference: string,
  type: 'DEBIT' | 'RETURN',
  amountPaise = 10100n,
  utr = `U${reference}`,
  valueDate = DAY,
): StatementLine => ({
  lineNumber: ++lineNumber,
  reference,
  utr,
  amountPaise,
  type,
  valueDate,
});
const payout = (id: number, state: BookPayout['state'], extra: Partial<BookPayout> = {}): BookPayout => ({
  id: BigInt(id),
  ackNo: `P${id}`,
  state,
  amountPaise: 10100n,
  bankReference: state === 'SUCCESS' || state === 'REVERSED' ? `UP${id}` : null,
  settledOn: state === 'SUCCESS' || state === 'FAILED' || state === 'REVERSED' ? DAY : null,
  sentOn: DAY,
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

    const items = matchStatement(lines, [DAY], books, calendar);

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
      return_before_sent: 0,
      value_date_in_future: 0,
      applied: 0,
    });
    expect(Object.keys(countItems([], 0))).toEqual([...RECON_CLASSES, 'applied']);
  });

  it('when a payout was settled on another day, then its absence from this statement is no break', () => {
    const items = matchStatement([], [DAY], [payout(1, 'SUCCESS', { settledOn: '2026-11-22' })], calendar);
    expect(items).toEqual([]);
  });

  it('when money comes back for a payout that failed here, then it is a return kept for a person', () => {
    const [item] = matchStatement([line('P2', 'RETURN')], [DAY], [payout(2, 'FAILED')], calendar);
    expect(item).toMatchObject({
      class: 'return',
      action: { kind: 'record-discrepancy', payoutId: 2n, discrepancy: 'REVERSAL_OF_UNPAID' },
      resolved: false,
    });
  });

  it('when a break is shown, then it says what each side says', () => {
    const [item] = matchStatement([line('P5', 'DEBIT', 9999n, 'UTR5')], [DAY], [payout(5, 'SUCCESS')], calendar);
    expect(breakOf(item!)).toEqual({
      kind: 'amount_mismatch',
      reference: 'P5',
      bank: { line: item!.line!.lineNumber, utr: 'UTR5', amount: '99.99', type: 'DEBIT', value_date: DAY },
      books: { state: 'SUCCESS', amount: '101.00', utr: 'UP5', settled_on: DAY },
    });
  });

  it('when money comes back dated before the payout was sent, then it is a return_before_sent break and nothing is reversed', () => {
    // A payout paid today and a RETURN line dated 2020: the statement cannot be right about it.
    const paidToday = payout(1, 'SUCCESS', { sentOn: DAY });
    const items = matchStatement(
      [line('P1', 'DEBIT'), line('P1', 'RETURN', 10100n, 'RET1', '2020-01-15')],
      [DAY, '2020-01-15'],
      [paidToday],
      calendar,
    );

    expect(items.map((i) => [i.class, i.action ?? null, i.resolved])).toEqual([
      ['matched', null, true],
      ['return_before_sent', null, false],
    ]);
    expect(planActions(items)).toEqual([]);
    expect(breakOf(items[1]!)).toMatchObject({ kind: 'return_before_sent', bank: { value_date: '2020-01-15' } });
  });

  it('when money comes back on the day the payout was sent, then it is an ordinary return', () => {
    const [item] = matchStatement([line('P1', 'RETURN')], [DAY], [payout(1, 'SUCCESS', { sentOn: DAY })], calendar);
    expect(item).toMatchObject({ class: 'return', action: { kind: 'reverse' } });
  });

  it('when a DEBIT or a RETURN is dated after today, then each is a value_date_in_future break and nothing is planned', () => {
    const tomorrow = '2026-11-24';
    const items = matchStatement(
      [line('P3', 'DEBIT', 10100n, 'PAY3', tomorrow), line('P1', 'RETURN', 10100n, 'RET1', tomorrow)],
      [tomorrow],
      [payout(3, 'AWAITING_RAIL'), payout(1, 'SUCCESS')],
      calendar,
    );

    expect(items.map((i) => [i.reference, i.class, i.action ?? null, i.resolved])).toEqual([
      ['P3', 'value_date_in_future', null, false],
      ['P1', 'value_date_in_future', null, false],
    ]);
    expect(planActions(items)).toEqual([]);
    expect(countItems(items, 0).value_date_in_future).toBe(2);
  });

  it('when a statement both pays and returns, then the plan names each payout, line and state, payments first', () => {
    const lines = [line('P6', 'RETURN', 10100n, 'RET6'), line('P3', 'DEBIT', 10100n, 'PAY3')];
    const items = matchStatement(lines, [DAY], [payout(3, 'OUTCOME_UNKNOWN'), payout(6, 'SUCCESS')], calendar);

    expect(planActions(items)).toEqual([
      {
        kind: 'settle-success',
        payoutId: 3n,
        ackNo: 'P3',
        utr: 'PAY3',
        amountPaise: 10100n,
        lineNumber: lines[1]!.lineNumber,
        valueDate: DAY,
        expectedState: 'OUTCOME_UNKNOWN',
      },
      {
        kind: 'reverse',
        payoutId: 6n,
        ackNo: 'P6',
        utr: 'RET6',
        amountPaise: 10100n,
        lineNumber: lines[0]!.lineNumber,
        valueDate: DAY,
        expectedState: 'SUCCESS',
      },
    ]);
  });
});
