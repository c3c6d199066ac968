import { describe, expect, it } from 'vitest';
import { AppError, stringifyJson, type FieldError } from '@payout/domain';
import {
  decodeListCursor,
  encodeListCursor,
  parsePayoutListQuery,
  payoutListBody,
  payoutListSchema,
  type PayoutListFilters,
  type PayoutListItem,
} from './payout-list.js';
import { parseListTime } from './query-parameters.js';

// GET /api/payouts's query, cursor and body (docs/api.md, "Listing payouts"), without a server.

const NO_FILTERS: PayoutListFilters = { from: null, to: null, status: null, mode: null, batchId: null, bank: null };

/** The fields a query is refused for, or [] when it is accepted. */
function refusedFields(query: Record<string, unknown>): string[] {
  try {
    parsePayoutListQuery(query);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).httpStatus).toBe(422);
    return ((error as AppError).details.errors as FieldError[]).map((e) => e.field);
  }
}

describe('parseListTime', () => {
  it.each([
    ['2026-11-28', '2026-11-27T18:30:00.000Z'],
    ['2026-11-28T10:00:00+05:30', '2026-11-28T04:30:00.000Z'],
    ['2026-11-28T10:00+05:30', '2026-11-28T04:30:00.000Z'],
    ['2026-11-28T04:30:00Z', '2026-11-28T04:30:00.000Z'],
    ['2026-11-28T04:30:00.123Z', '2026-11-28T04:30:00.123Z'],
    ['2026-11-28T04:30:00-02:00', '2026-11-28T06:30:00.000Z'],
    ['2026-01-01T01:00:00+05:30', '2025-12-31T19:30:00.000Z'],
    ['2024-02-29', '2024-02-28T18:30:00.000Z'],
    // A `+` sent unencoded in a URL arrives as a space.
    ['2026-11-28T10:00:00 05:30', '2026-11-28T04:30:00.000Z'],
    // Times are kept to the millisecond: a finer bound is the next millisecond.
    ['2026-11-28T04:30:00.123000Z', '2026-11-28T04:30:00.123Z'],
    ['2026-11-28T04:30:00.1230001Z', '2026-11-28T04:30:00.124Z'],
  ])('when given %s, then it is %s', (text, iso) => {
    expect(parseListTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-11-28T10:00:00', // no offset: which time zone?
    '2026-02-29',
    '2026-13-01',
    '2026-11-31',
    '2026-11-28T24:00:00Z',
    '2026-11-28T10:60:00Z',
    '2026-11-28T10:00:60Z',
    '2026-11-28T10:00:00+24:00',
    '2026-11-28T10:00:00+0530',
    '2026-11-28 10:00:00Z',
    '28-11-2026',
    '1764300000',
    'yesterday',
    '',
    '2026-11-28T10:00:00.1234567890Z',
  ])('when given %j, then it is no time', (text) => {
    expect(parseListTime(text)).toBeUndefined();
  });
});

describe('parsePayoutListQuery', () => {
  it('when nothing is given, then every filter is off, the limit is 100 and the list starts at the newest', () => {
    expect(parsePayoutListQuery({})).toEqual({ filters: NO_FILTERS, limit: 100, after: null });
  });

  it('when every parameter is given, then each is read into its filter, status as the lookup spells it', () => {
    expect(
      parsePayoutListQuery({
        from: '2026-11-01',
        to: '2026-12-01T00:00:00+05:30',
        status: 'Failed',
        mode: 'UPI',
        BatchID: '0042',
        bank: 'secondary-2',
        limit: '1000',
      }),
    ).toEqual({
      filters: {
        from: new Date('2026-10-31T18:30:00.000Z'),
        to: new Date('2026-11-30T18:30:00.000Z'),
        status: 'FAILED',
        mode: 'UPI',
        batchId: '0042',
        bank: 'secondary-2',
      },
      limit: 1000,
      after: null,
    });
  });

  it('when a parameter is "", then it is not given', () => {
    expect(parsePayoutListQuery({ from: '', status: '', limit: '', cursor: '' })).toEqual({
      filters: NO_FILTERS,
      limit: 100,
      after: null,
    });
  });

  it.each([
    ['an unknown parameter', { state: 'Failed' }, ['state']],
    ['a parameter in other letter case', { Status: 'Failed', batchid: '1' }, ['Status', 'batchid']],
    ['a repeated parameter', { mode: ['IMPS', 'UPI'] }, ['mode']],
    ['a repeated limit', { limit: ['10', '10'] }, ['limit']],
    ['a status in upper case', { status: 'SUCCESS' }, ['status']],
    ['an internal state', { status: 'SUBMITTING' }, ['status']],
    ['a mode in lower case', { mode: 'imps' }, ['mode']],
    ['a bad date', { from: '2026-02-30' }, ['from']],
    ['a timestamp without offset', { to: '2026-11-28T10:00:00' }, ['to']],
    ['to at from', { from: '2026-11-28', to: '2026-11-28T00:00:00+05:30' }, ['to']],
    ['to before from', { from: '2026-11-28', to: '2026-11-27' }, ['to']],
    ['limit 0', { limit: '0' }, ['limit']],
    ['limit 1001', { limit: '1001' }, ['limit']],
    ['limit with a leading zero', { limit: '050' }, ['limit']],
    ['limit not a number', { limit: 'all' }, ['limit']],
    ['limit negative', { limit: '-1' }, ['limit']],
    ['a BatchID of 31 digits', { BatchID: '1'.repeat(31) }, ['BatchID']],
    ['a BatchID with letters', { BatchID: '12a' }, ['BatchID']],
    ['a bank in upper case', { bank: 'PRIMARY' }, ['bank']],
    ['a bank alias too long', { bank: `b${'a'.repeat(32)}` }, ['bank']],
    ['a cursor of garbage', { cursor: 'not a cursor!' }, ['cursor']],
    ['several faults at once', { mode: 'NEFT', limit: '0', colour: 'red' }, ['colour', 'mode', 'limit']],
  ])('when given %s, then 422 naming exactly the parameters at fault', (_name, query, fields) => {
    expect(refusedFields(query).sort()).toEqual([...fields].sort());
  });

  it('when an unknown parameter has a very long name, then the answer quotes only its start', () => {
    const name = 'x'.repeat(5_000);
    try {
      parsePayoutListQuery({ [name]: '1' });
      expect.unreachable();
    } catch (error) {
      const [entry] = (error as AppError).details.errors as FieldError[];
      expect(entry!.field.length).toBeLessThanOrEqual(65);
      expect(entry!.message.length).toBeLessThan(200);
    }
  });
});

describe('the cursor', () => {
  const position = { createdAt: new Date('2026-11-28T04:30:00.123Z'), id: 9_007_199_254_740_993n };
  const filters: PayoutListFilters = { ...NO_FILTERS, status: 'PENDING', mode: 'IMPS' };

  it('when a next_cursor comes back with the same filters, then the next page starts just after its payout', () => {
    const cursor = encodeListCursor(position, filters);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parsePayoutListQuery({ status: 'Pending', mode: 'IMPS', limit: '5', cursor })).toEqual({
      filters,
      limit: 5,
      after: position,
    });
  });

  it('when the same filters are spelled another way (a date, or its timestamp), then the cursor still fits', () => {
    const from = { ...NO_FILTERS, from: new Date('2026-11-27T18:30:00.000Z') };
    const cursor = encodeListCursor(position, from);
    expect(parsePayoutListQuery({ from: '2026-11-28T00:00:00+05:30', cursor }).after).toEqual(position);
    expect(parsePayoutListQuery({ from: '2026-11-28', cursor }).after).toEqual(position);
  });

  it.each([
    ['a filter dropped', { status: 'Pending' }],
    ['a filter changed', { status: 'Failed', mode: 'IMPS' }],
    ['a filter added', { status: 'Pending', mode: 'IMPS', bank: 'primary' }],
    ['a window added', { status: 'Pending', mode: 'IMPS', to: '2026-12-01' }],
  ])('when it comes back with %s, then 422 on cursor', (_name, query) => {
    expect(refusedFields({ ...query, cursor: encodeListCursor(position, filters) })).toEqual(['cursor']);
  });

  it('when a cursor is edited, then it is refused unless it is still exactly a cursor of ours', () => {
    const cursor = encodeListCursor(position, filters);
    const payload = Buffer.from(cursor, 'base64url').toString('latin1');
    const reencoded = (text: string) => Buffer.from(text, 'latin1').toString('base64url');

    expect(decodeListCursor(cursor)).toEqual({ position, filters: payload.split(':')[3] });
    for (const edited of [
      cursor.slice(0, -1), // cut short
      `${cursor}A`, // one character more
      `${cursor}==`, // padded
      cursor.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), // last character changed
      reencoded(payload.replace(/^1:/, '2:')), // another version
      reencoded(payload.replace(/:[0-9a-f]{16}$/, ':zzzzzzzzzzzzzzzz')), // fingerprint not hex
      reencoded(payload.replace(/:[0-9a-f]{16}$/, '')), // no fingerprint
      reencoded(payload.replace(/^1:(\d+):/, '1:0$1:')), // time with a leading zero
      reencoded(payload.replace(/:(\d+):([0-9a-f]+)$/, ':0:$2')), // id 0
      reencoded(payload.replace(/:(\d+):([0-9a-f]+)$/, ':9223372036854775808:$2')), // id past bigint
      reencoded(`${payload} `), // trailing space
      reencoded(`{"at":1,"id":1}`),
      'x'.repeat(500),
    ]) {
      expect(refusedFields({ status: 'Pending', mode: 'IMPS', cursor: edited }), edited).toEqual(['cursor']);
    }
  });

  it('when a cursor is rewritten whole to start elsewhere, for the same filters, then it is read: it is no secret', () => {
    // It can only move where the caller's own list starts, which the caller may read anyway (from, to).
    const elsewhere = { createdAt: new Date('2026-01-01T00:00:00.000Z'), id: 1n };
    const payload = Buffer.from(encodeListCursor(position, filters), 'base64url').toString('latin1');
    const rewritten = payload.replace(/^1:\d+:\d+:/, `1:${elsewhere.createdAt.getTime()}:1:`);

    const cursor = Buffer.from(rewritten, 'latin1').toString('base64url');
    expect(parsePayoutListQuery({ status: 'Pending', mode: 'IMPS', cursor }).after).toEqual(elsewhere);
  });
});

describe('payoutListBody', () => {
  const item = (id: bigint, ms: number): PayoutListItem => ({
    id,
    createdAt: new Date(ms),
    mode: 'UPI',
    status: 'FAILED',
    state: 'FAILED',
    transactionId: `12345678901234567890${id}`,
    amountPaise: 10_150n,
    ackNo: '06F3K9Q2ZC4M7XR1B8TD',
    account: 'asha.kumar@okhdfc',
    ifsc: null,
    bankReference: null,
    failureReason: 'INSUFFICIENT_BALANCE',
  });

  it('when more payouts follow, then next_cursor points just after the last one, for the same filters', () => {
    const filters = { ...NO_FILTERS, mode: 'UPI' as const };
    const body = payoutListBody({ payouts: [item(7n, 2_000), item(5n, 1_000)], more: true }, filters);

    expect(payoutListSchema.safeParse(JSON.parse(stringifyJson(body))).error?.issues ?? []).toEqual([]);
    expect(body.payouts.map((p) => [p.status, p.TransactionID, p.Amount, p.reason_code, p.retryable])).toEqual([
      ['Failed', '123456789012345678907', '101.50', 'INSUFFICIENT_BALANCE', true],
      ['Failed', '123456789012345678905', '101.50', 'INSUFFICIENT_BALANCE', true],
    ]);
    expect(parsePayoutListQuery({ mode: 'UPI', cursor: body.next_cursor }).after).toEqual({
      createdAt: new Date(1_000),
      id: 5n,
    });
  });

  it('when the page is the last, or empty, then next_cursor is null', () => {
    expect(payoutListBody({ payouts: [item(7n, 2_000)], more: false }, NO_FILTERS).next_cursor).toBeNull();
    expect(payoutListBody({ payouts: [], more: false }, NO_FILTERS)).toEqual({
      error: false,
      status_code: 200,
      status: 'Success',
      payouts: [],
      next_cursor: null,
    });
  });
});
