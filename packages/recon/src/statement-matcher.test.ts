import { describe, expect, it } from 'vitest';
import type { StatementLine } from './statement-csv.js';
import { matchStatement, RECON_CLASSES, type BookPayout } from './statement-matcher.js';
import { breakOf, countItems, linePlace, planActions } from './statement-run.js';

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
      reversed_here_missing_at_bank: 0,
      pending_here_paid_at_bank: 2,
      amount_mismatch: 1,
      unknown_reference: 1,
      return: 2,
      duplicate_line: 1,
      return_before_sent: 0,
      value_date_in_future: 0,
      suggested_match: 0,
      return_without_bank_code: 0,
      applied: 0,
    });
    expect(Object.keys(countItems([], 0))).toEqual([...RECON_CLASSES, 'applied']);
  });

  it('when a payout was settled on another day, then its absence from this statement is no break', () => {
    const items = matchStatement([], [DAY], [payout(1, 'SUCCESS', { settledOn: '2026-11-22' })], calendar);
    expect(items).toEqual([]);
  });

  it('when a payout was reversed here on one of the dates and no line brings its money back, then it is a reversed_here_missing_at_bank break', () => {
    const reversed = [
      payout(1, 'REVERSED', { settledOn: '2026-11-22', reversedOn: DAY }),
      payout(2, 'REVERSED', { settledOn: '2026-11-22', reversedOn: DAY }),
      payout(3, 'REVERSED', { settledOn: '2026-11-22', reversedOn: '2026-11-22' }),
      // Reversed by a statement's own line: its return is proven already.
      payout(4, 'REVERSED', { settledOn: '2026-11-22', reversedOn: null }),
    ];
    const items = matchStatement([line('P2', 'RETURN')], [DAY], reversed, calendar);
    expect(items.map((i) => [i.reference, i.class, i.resolved])).toEqual([
      ['P2', 'return', true],
      ['P1', 'reversed_here_missing_at_bank', false],
    ]);
    expect(planActions(items)).toEqual([]);
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

describe('matchStatement beyond the reference', () => {
  const batchOf = (key: string, batchId: string, payouts: number) => ({ batch: { key, batchId, payouts } });

  it('when a line has no reference of ours but the UTR a payout was settled with, then it is matched to that payout', () => {
    const items = matchStatement([line('BANKNARR1', 'DEBIT', 10100n, 'UP1')], [DAY], [payout(1, 'SUCCESS')], calendar);

    expect(items.map((i) => [i.reference, i.class, i.resolved])).toEqual([['P1', 'matched', true]]);
  });

  it('when a debit without our reference carries the UTR of a payout still pending here, then it is paid at the bank but nothing is planned to settle it', () => {
    const pending = payout(3, 'AWAITING_RAIL', { bankReference: 'RAILUTR3' });
    const items = matchStatement([line('BANKREF9', 'DEBIT', 10100n, 'RAILUTR3')], [DAY], [pending], calendar);

    expect(items.map((i) => [i.reference, i.class, i.action ?? null])).toEqual([
      ['P3', 'pending_here_paid_at_bank', null],
    ]);
    expect(planActions(items)).toEqual([]);
  });

  it('when a bank line without our reference is named by a bank reference that is an Ack_no of ours, then it is not read as our reference', () => {
    const bankNamed = { ...line('P1', 'DEBIT', 10100n, 'NOUTR'), withoutOurReference: true as const };
    const items = matchStatement([bankNamed], [DAY], [payout(1, 'AWAITING_RAIL', { sentOn: '2026-11-19' })], calendar);

    expect(items.map((i) => [i.reference, i.class, i.payout?.ackNo ?? null])).toEqual([
      ['P1', 'unknown_reference', null],
    ]);
  });

  it('when two lines of other references carry the same UTR of one payout, then the second is a duplicate_line', () => {
    const items = matchStatement(
      [line('NARR1', 'RETURN', 10100n, 'UP1'), line('NARR2', 'RETURN', 10100n, 'UP1')],
      [DAY],
      [payout(1, 'SUCCESS')],
      calendar,
    );

    expect(items.map((i) => [i.reference, i.class])).toEqual([
      ['P1', 'return'],
      ['NARR2', 'duplicate_line'],
      // No DEBIT line for it on the day it was settled.
      ['P1', 'success_here_missing_at_bank'],
    ]);
    expect(planActions(items).map((a) => a.kind)).toEqual(['reverse']);
  });

  it('when the UTR of a line is the bank reference of two payouts, then it names neither', () => {
    const books = [payout(1, 'SUCCESS', { bankReference: 'SAME' }), payout(2, 'SUCCESS', { bankReference: 'SAME' })];
    const items = matchStatement([line('BANKNARR1', 'DEBIT', 500n, 'SAME')], [DAY], books, calendar);

    expect(items[0]).toMatchObject({ class: 'unknown_reference', reference: 'BANKNARR1' });
  });

  it('when a line of no known key has the amount of one payout sent the day before, then it is a suggested_match naming it, and nothing is planned', () => {
    const sentYesterday = payout(3, 'AWAITING_RAIL', { sentOn: '2026-11-22', beneficiaryName: 'Asha Rao' });
    const items = matchStatement([line('NARR', 'DEBIT', 10100n, 'XUTR')], [DAY], [sentYesterday], calendar);

    expect(items.map((i) => [i.class, i.action ?? null, i.resolved])).toEqual([['suggested_match', null, false]]);
    expect(planActions(items)).toEqual([]);
    expect(countItems(items, 0)).toMatchObject({ suggested_match: 1, unknown_reference: 0 });
    expect(breakOf(items[0]!).candidates).toEqual([
      { ack_no: 'P3', amount: '101.00', beneficiary: 'Asha Rao', date: '2026-11-22' },
    ]);
  });

  it('when the only payout of the amount was sent two days before, then the line stays an unknown_reference', () => {
    const items = matchStatement(
      [line('NARR', 'DEBIT', 10100n, 'XUTR')],
      [DAY],
      [payout(3, 'AWAITING_RAIL', { sentOn: '2026-11-21' })],
      calendar,
    );

    expect(items.map((i) => i.class)).toEqual(['unknown_reference']);
  });

  it('when the narration names one of several candidates, then only that one is suggested', () => {
    const books = [1, 2, 3, 4].map((id) =>
      payout(id, 'AWAITING_RAIL', { beneficiaryName: id === 2 ? 'Ravi Kumar' : `Someone ${id}` }),
    );
    const narrated = { ...line('NARR', 'DEBIT', 10100n, 'XUTR'), narration: 'IMPS/XUTR/RAVI KUMAR/SBIN' };

    const named = matchStatement([narrated], [DAY], books, calendar);
    const unnamed = matchStatement([line('NARR', 'DEBIT', 10100n, 'XUTR')], [DAY], books, calendar);

    expect(named[0]).toMatchObject({ class: 'suggested_match' });
    expect(named[0]!.candidates!.map((p) => p.ackNo)).toEqual(['P2']);
    // Four of the amount and none named: too many to tell apart.
    expect(unnamed.map((i) => i.class)).toEqual(['unknown_reference']);
  });

  it('when a debit names a bulk batch only in its narration, then it pays that batch', () => {
    const books = [
      payout(1, 'SUCCESS', { amountPaise: 10000n, sentOn: '2026-11-22', ...batchOf('7', 'B7781', 2) }),
      payout(2, 'SUCCESS', { amountPaise: 25000n, sentOn: '2026-11-22', ...batchOf('7', 'B7781', 2) }),
    ];
    const narrated = { ...line('BANKREF7', 'DEBIT', 35000n, 'BULKUTR'), narration: 'BULK/B7781/ACME TRADING' };

    const items = matchStatement([narrated], [DAY], books, calendar);
    const unnamed = matchStatement([{ ...narrated, narration: 'BULK/ACME TRADING' }], [DAY], books, calendar);

    expect(items.map((i) => [i.reference, i.class])).toEqual([
      ['P1', 'matched'],
      ['P2', 'matched'],
    ]);
    expect(unnamed.map((i) => i.class)).toEqual([
      'unknown_reference',
      'success_here_missing_at_bank',
      'success_here_missing_at_bank',
    ]);
  });

  it('when a debit names a bulk batch and pays its total, then every payout of the batch is paid by that line, and none is settled with its UTR', () => {
    const books = [
      payout(1, 'AWAITING_RAIL', { amountPaise: 10000n, ...batchOf('7', '20261123', 2) }),
      payout(2, 'SUCCESS', { amountPaise: 25000n, bankReference: 'BULKUTR', ...batchOf('7', '20261123', 2) }),
    ];
    const items = matchStatement([line('20261123', 'DEBIT', 35000n, 'BULKUTR')], [DAY], books, calendar);

    expect(items.map((i) => [i.reference, i.class, i.resolved])).toEqual([
      ['P1', 'pending_here_paid_at_bank', false],
      ['P2', 'matched', true],
    ]);
    // The debit's UTR is the batch's: it cannot be the proof of each payout's payment.
    expect(planActions(items)).toEqual([]);
  });

  it('when a debit names a bulk batch but not its total, then it is an amount_mismatch and nothing is planned', () => {
    const books = [payout(1, 'AWAITING_RAIL', { amountPaise: 10000n, ...batchOf('7', '20261123', 1) })];
    const items = matchStatement([line('20261123', 'DEBIT', 9000n, 'BULKUTR')], [DAY], books, calendar);

    expect(items.map((i) => [i.reference, i.class])).toEqual([['20261123', 'amount_mismatch']]);
    expect(planActions(items)).toEqual([]);
  });

  it('when a debit of no known key totals exactly the one batch sent that day, then it pays that batch', () => {
    const books = [
      payout(1, 'AWAITING_RAIL', { amountPaise: 10000n, ...batchOf('7', '11', 2) }),
      payout(2, 'AWAITING_RAIL', { amountPaise: 20000n, ...batchOf('7', '11', 2) }),
      payout(3, 'AWAITING_RAIL', { amountPaise: 30000n, sentOn: '2026-11-22', ...batchOf('8', '12', 1) }),
    ];
    const items = matchStatement([line('NARR', 'DEBIT', 30000n, 'BULKUTR')], [DAY], books, calendar);

    expect(items.map((i) => [i.reference, i.class])).toEqual([
      ['P1', 'pending_here_paid_at_bank'],
      ['P2', 'pending_here_paid_at_bank'],
    ]);
  });

  it('when two batches sent that day have the same total, then the debit pays neither', () => {
    const books = [
      payout(1, 'AWAITING_RAIL', { amountPaise: 30000n, ...batchOf('7', '11', 1) }),
      payout(2, 'AWAITING_RAIL', { amountPaise: 30000n, ...batchOf('8', '12', 1) }),
    ];
    const items = matchStatement([line('NARR', 'DEBIT', 30000n, 'BULKUTR')], [DAY], books, calendar);

    // Not a batch; as two payouts of its amount, a suggestion for a person.
    expect(items.map((i) => i.class)).toEqual(['suggested_match']);
    expect(planActions(items)).toEqual([]);
  });

  it('when only part of a batch is in the books loaded, then its total is not taken for the batch', () => {
    const books = [payout(1, 'AWAITING_RAIL', { amountPaise: 10000n, ...batchOf('7', '11', 2) })];
    const items = matchStatement([line('NARR', 'DEBIT', 20000n, 'BULKUTR')], [DAY], books, calendar);

    expect(items.map((i) => i.class)).toEqual(['unknown_reference']);
  });
});

describe('lines of a run of several files', () => {
  it('when two files each have a line 2, then each item, break and planned action keeps its file, and actions apply file by file', () => {
    const inFile = (file: number, reference: string) => ({ ...line(reference, 'DEBIT'), lineNumber: 2, file });
    const items = matchStatement(
      [inFile(2, 'P1'), inFile(1, 'P2')],
      [DAY],
      [payout(1, 'AWAITING_RAIL'), payout(2, 'AWAITING_RAIL')],
      calendar,
    );

    expect(items.map((i) => breakOf(i).bank)).toEqual([
      expect.objectContaining({ file: 2, line: 2 }),
      expect.objectContaining({ file: 1, line: 2 }),
    ]);
    expect(planActions(items).map((a) => [a.ackNo, a.file, a.lineNumber])).toEqual([
      ['P2', 1, 2],
      ['P1', 2, 2],
    ]);
    expect(planActions(items).map(linePlace)).toEqual(['file 1 line 2', 'file 2 line 2']);
  });

  it('when a run reads one file, then its lines, breaks and actions name no file, as runs stored before', () => {
    const items = matchStatement([line('P1', 'DEBIT')], [DAY], [payout(1, 'AWAITING_RAIL')], calendar);

    expect(breakOf(items[0]!).bank).not.toHaveProperty('file');
    expect(planActions(items)[0]).not.toHaveProperty('file');
    expect(linePlace(planActions(items)[0]!)).toBe(`line ${items[0]!.line!.lineNumber}`);
  });
});
