import { describe, expect, it } from 'vitest';
import { AppError, LEDGER_ENTRY_KINDS, stringifyJson, type FieldError } from '@payout/domain';
import {
  decodeStatementCursor,
  encodeStatementCursor,
  istTimestamp,
  movesMainWallet,
  parseStatementQuery,
  STATEMENT_WORDS,
  statementBody,
  statementCsvRows,
  statementFileName,
  statementSchema,
  type StatementEntrySource,
  type StatementPeriod,
} from './statement.js';

// GET /api/statement's words, query, cursor, body and CSV rows (docs/api.md, "Statement"), without a server.

// 2026-12-01 10:15:00 India time.
const NOW = new Date('2026-12-01T04:45:00.000Z');
const DEC_1 = new Date('2026-11-30T18:30:00.000Z');
const DEC_2 = new Date('2026-12-01T18:30:00.000Z');
const PERIOD: StatementPeriod = { from: DEC_1, to: DEC_2 };

/** The fields a query is refused for, or [] when it is accepted. */
function refusedFields(query: Record<string, unknown>): string[] {
  try {
    parseStatementQuery(query, NOW);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).httpStatus).toBe(422);
    return ((error as AppError).details.errors as FieldError[]).map((e) => e.field);
  }
}

const entry = (id: bigint, kind: StatementEntrySource['kind'], amountPaise: bigint, minute: number) => ({
  id,
  kind,
  amountPaise,
  createdAt: new Date(DEC_1.getTime() + minute * 60_000),
  transactionId: kind === 'WALLET_CREDIT' ? null : `2024${id}`,
  reference: kind === 'WALLET_CREDIT' ? `CR-${id}` : null,
});

describe('the statement words', () => {
  it('when a ledger kind moves the main wallet, then it has a type and a description; when it never does, then it is null', () => {
    expect(Object.keys(STATEMENT_WORDS).sort()).toEqual([...LEDGER_ENTRY_KINDS].sort());
    for (const kind of LEDGER_ENTRY_KINDS) {
      const words = STATEMENT_WORDS[kind];
      if (movesMainWallet(kind))
        expect(words, kind).toMatchObject({ type: expect.any(String), description: expect.any(String) });
      else expect(words, kind).toBeNull();
    }
    // Each type names one kind, so a merchant can tell every movement apart.
    const types = LEDGER_ENTRY_KINDS.flatMap((kind) => STATEMENT_WORDS[kind]?.type ?? []);
    expect(new Set(types).size).toBe(types.length);
    expect(movesMainWallet('PAYOUT_SETTLE')).toBe(false);
  });
});

describe('istTimestamp', () => {
  it.each([
    ['2026-11-30T18:30:00.000Z', '2026-12-01T00:00:00.000+05:30'],
    ['2026-12-01T04:45:30.123Z', '2026-12-01T10:15:30.123+05:30'],
    ['2025-12-31T20:00:00.000Z', '2026-01-01T01:30:00.000+05:30'],
  ])('when %s, then %s, the same moment', (utc, ist) => {
    expect(istTimestamp(new Date(utc))).toBe(ist);
    expect(new Date(ist).toISOString()).toBe(utc);
  });
});

describe('parseStatementQuery', () => {
  it('when nothing is given, then today so far in India time, JSON, 100 entries, the first page', () => {
    expect(parseStatementQuery({}, NOW)).toEqual({
      period: { from: DEC_1, to: null },
      format: 'json',
      limit: 100,
      after: null,
    });
  });

  it('when from and to are given as dates or timestamps, then they are the period, to not included', () => {
    expect(parseStatementQuery({ from: '2026-12-01', to: '2026-12-02T00:00:00+05:30' }, NOW).period).toEqual(PERIOD);
    expect(parseStatementQuery({ from: '2026-11-30T18:30:00Z' }, NOW).period).toEqual({ from: DEC_1, to: null });
    expect(parseStatementQuery({ from: '2026-12-01', limit: '1000' }, NOW).limit).toBe(1000);
    expect(parseStatementQuery({ format: 'csv' }, NOW).format).toBe('csv');
    expect(parseStatementQuery({ limit: '1', format: 'json', from: '', to: '' }, NOW).limit).toBe(1);
  });

  it(`when the period spans 93 days, then it is accepted; one millisecond more, then refused`, () => {
    const to = new Date(DEC_1.getTime() + 93 * 86_400_000);
    expect(parseStatementQuery({ from: DEC_1.toISOString(), to: to.toISOString() }, NOW).period.to).toEqual(to);
    expect(refusedFields({ from: DEC_1.toISOString(), to: new Date(to.getTime() + 1).toISOString() })).toEqual(['to']);
    // Without to, the period runs to now.
    const early = new Date(NOW.getTime() - 93 * 86_400_000 - 1);
    expect(refusedFields({ from: early.toISOString() })).toEqual(['from']);
  });

  it.each([
    ['an unknown parameter', { PayoutType: 'Main_Wallet_Balance' }, ['PayoutType']],
    ['a misspelt one', { form: '2026-12-01' }, ['form']],
    ['from repeated', { from: ['2026-12-01', '2026-12-01'] }, ['from']],
    ['from not a time', { from: 'yesterday' }, ['from']],
    ['from without an offset', { from: '2026-12-01T00:00:00' }, ['from']],
    ['from not a real day', { from: '2026-02-30' }, ['from']],
    ['to without from', { to: '2026-12-02' }, ['from']],
    ['to at from', { from: '2026-12-01', to: '2026-12-01T00:00:00+05:30' }, ['to']],
    ['to before from', { from: '2026-12-02', to: '2026-12-01' }, ['to']],
    ['limit 0', { limit: '0' }, ['limit']],
    ['limit 1001', { limit: '1001' }, ['limit']],
    ['limit not a number', { limit: 'ten' }, ['limit']],
    ['limit with a sign', { limit: '+5' }, ['limit']],
    ['limit repeated', { limit: ['5', '6'] }, ['limit']],
    ['an unknown format', { format: 'xlsx' }, ['format']],
    ['format in capitals', { format: 'CSV' }, ['format']],
    ['limit with the CSV', { format: 'csv', limit: '10' }, ['limit']],
    ['a cursor that is not ours', { cursor: 'abc' }, ['cursor']],
    ['two of them wrong', { from: 'x', limit: '0', extra: '1' }, ['extra', 'from', 'limit']],
  ])('when %s, then 422 naming it', (_what, query, fields) => {
    expect(refusedFields(query).sort()).toEqual([...fields].sort());
  });
});

describe('the cursor', () => {
  const position = { createdAt: new Date(DEC_1.getTime() + 3_600_123), id: 918273n };

  it('when given back, then it reads as the period and the position it was given for', () => {
    for (const period of [PERIOD, { from: DEC_1, to: null }]) {
      const cursor = encodeStatementCursor(period, position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeStatementCursor(cursor)).toEqual({ period, position });
    }
  });

  it('when sent with the same period, or with none, then the page starts after its entry in its period; limit may change', () => {
    const cursor = encodeStatementCursor(PERIOD, position);
    const same = parseStatementQuery({ from: '2026-12-01', to: '2026-12-02', cursor, limit: '7' }, NOW);
    expect(same).toEqual({ period: PERIOD, format: 'json', limit: 7, after: position });
    expect(parseStatementQuery({ cursor }, NOW)).toEqual({ ...same, limit: 100 });
    // An open period's cursor keeps it open, even after midnight has moved "today" on.
    const open = encodeStatementCursor({ from: DEC_1, to: null }, position);
    expect(parseStatementQuery({ cursor: open }, DEC_2).period).toEqual({ from: DEC_1, to: null });
  });

  it('when sent with another period, with the CSV, or changed in any way, then 422 on cursor', () => {
    const cursor = encodeStatementCursor(PERIOD, position);
    expect(refusedFields({ cursor, from: '2026-11-30', to: '2026-12-02' })).toEqual(['cursor']);
    expect(refusedFields({ cursor, to: '2026-12-03' })).toEqual(['cursor']);
    expect(
      refusedFields({ cursor: encodeStatementCursor({ from: DEC_1, to: null }, position), to: '2026-12-02' }),
    ).toEqual(['cursor']);
    expect(refusedFields({ cursor, format: 'csv' })).toEqual(['cursor']);
    const payload = Buffer.from(cursor, 'base64url').toString('latin1');
    const tampered = [
      payload.replace(':918273:', ':918274:'),
      payload.replace(`:${DEC_2.getTime()}:`, `:${DEC_2.getTime() + 86_400_000}:`),
      payload.replace(/:([0-9a-f]{12})$/, ':000000000000'),
      payload.slice(0, -1),
      `${payload}0`,
    ];
    for (const text of tampered) {
      expect(decodeStatementCursor(Buffer.from(text, 'latin1').toString('base64url')), text).toBeUndefined();
    }
    expect(decodeStatementCursor(`${cursor}A`)).toBeUndefined();
    expect(decodeStatementCursor(cursor.toLowerCase())).toBeUndefined();
  });
});

describe('statementBody', () => {
  const entries = [
    entry(11n, 'PAYOUT_RESERVE', -10_100n, 1),
    entry(12n, 'PAYOUT_RELEASE', 10_100n, 2),
    entry(13n, 'WALLET_CREDIT', 50_000n, 3),
    entry(14n, 'COLLECTION_CREDIT', 2_500n, 4),
  ];

  it('when a page follows earlier entries, then each balance_after is the balance before plus its amount, and the money is rupees text', () => {
    const body = statementBody(PERIOD, {
      openingPaise: 476_500n,
      closingPaise: 529_000n,
      balanceBeforePaise: 476_500n,
      entries,
      more: false,
    });
    expect(statementSchema.safeParse(body).success).toBe(true);
    expect(body).toEqual({
      error: false,
      status_code: 200,
      status: 'Success',
      from: '2026-12-01T00:00:00.000+05:30',
      to: '2026-12-02T00:00:00.000+05:30',
      opening_balance: '4765.00',
      closing_balance: '5290.00',
      entries: [
        {
          id: '11',
          time: '2026-12-01T00:01:00.000+05:30',
          type: 'PAYOUT',
          description: STATEMENT_WORDS.PAYOUT_RESERVE!.description,
          amount: '-101.00',
          balance_after: '4664.00',
          TransactionID: '202411',
          reference: null,
        },
        expect.objectContaining({ id: '12', type: 'PAYOUT_FAILED', amount: '101.00', balance_after: '4765.00' }),
        expect.objectContaining({
          id: '13',
          type: 'WALLET_CREDIT',
          amount: '500.00',
          balance_after: '5265.00',
          TransactionID: null,
          reference: 'CR-13',
        }),
        expect.objectContaining({ id: '14', type: 'PAYIN', amount: '25.00', balance_after: '5290.00' }),
      ],
      next_cursor: null,
    });
    expect(stringifyJson(body)).toContain('"to":"2026-12-02T00:00:00.000+05:30"');
  });

  it('when more entries follow, then next_cursor starts after the last one, in the same period', () => {
    const body = statementBody(
      { from: DEC_1, to: null },
      { openingPaise: 0n, closingPaise: 1n, balanceBeforePaise: 0n, entries: entries.slice(0, 2), more: true },
    );
    expect(body.to).toBeNull();
    expect(decodeStatementCursor(body.next_cursor!)).toEqual({
      period: { from: DEC_1, to: null },
      position: { createdAt: entries[1]!.createdAt, id: 12n },
    });
  });

  it('when an entry of a kind that never moves the main wallet comes, then it is a bug, not a row', () => {
    expect(() =>
      statementBody(PERIOD, {
        openingPaise: 0n,
        closingPaise: 0n,
        balanceBeforePaise: 0n,
        entries: [entry(1n, 'PAYOUT_SETTLE', 100n, 1)],
        more: false,
      }),
    ).toThrow(/does not move the main wallet/);
  });
});

describe('the CSV rows', () => {
  async function* source(list: StatementEntrySource[]) {
    await Promise.resolve();
    yield* list;
  }

  it('when written, then the columns, the opening balance, each entry unsigned in Debit or Credit, and a closing balance that adds up', async () => {
    const rows: string[][] = [];
    const list = [entry(11n, 'PAYOUT_RESERVE', -10_100n, 1), entry(13n, 'WALLET_CREDIT', 50_000n, 3)];
    for await (const row of statementCsvRows(PERIOD, 476_500n, source(list), () => NOW)) rows.push(row);
    expect(rows).toEqual([
      ['Time', 'Type', 'Description', 'TransactionID', 'Reference', 'Debit', 'Credit', 'Balance', 'EntryID'],
      [
        '2026-12-01T00:00:00.000+05:30',
        'OPENING_BALANCE',
        'Balance at the start of the period',
        '',
        '',
        '',
        '',
        '4765.00',
        '',
      ],
      [
        '2026-12-01T00:01:00.000+05:30',
        'PAYOUT',
        STATEMENT_WORDS.PAYOUT_RESERVE!.description,
        '202411',
        '',
        '101.00',
        '',
        '4664.00',
        '11',
      ],
      [
        '2026-12-01T00:03:00.000+05:30',
        'WALLET_CREDIT',
        'Main wallet funded',
        '',
        'CR-13',
        '',
        '500.00',
        '5164.00',
        '13',
      ],
      [
        '2026-12-02T00:00:00.000+05:30',
        'CLOSING_BALANCE',
        'Balance at the end of the period',
        '',
        '',
        '',
        '',
        '5164.00',
        '',
      ],
    ]);
  });

  it('when the period runs to now, then the closing row stands at the moment the file ends', async () => {
    const rows: string[][] = [];
    for await (const row of statementCsvRows({ from: DEC_1, to: null }, 0n, source([]), () => NOW)) rows.push(row);
    expect(rows.at(-1)!.slice(0, 2)).toEqual(['2026-12-01T10:15:00.000+05:30', 'CLOSING_BALANCE']);
  });

  it('when named, then the MID and the first and last India days of the period', () => {
    expect(statementFileName('ACME_1', PERIOD, NOW)).toBe('statement-ACME_1-2026-12-01-to-2026-12-01.csv');
    expect(statementFileName('ACME_1', { from: DEC_1, to: null }, new Date(DEC_2.getTime() + 1))).toBe(
      'statement-ACME_1-2026-12-01-to-2026-12-02.csv',
    );
  });
});
