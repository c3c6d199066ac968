import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBankProfile, type BankCsvProfile } from './formats/bank-csv.js';
import type { BankEntry, BankStatement } from './formats/bank-statement.js';
import { acceptStatementFile, checkStatementFile, toStatementLines } from './statement-file.js';
import { matchStatement, type BookPayout } from './statement-matcher.js';
import { planActions } from './statement-run.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/recon/fixtures/${name}`, import.meta.url), 'utf8');
const profile = (name: string): BankCsvProfile => {
  const parsed = parseBankProfile(readFileSync(new URL(`../profiles/${name}.json`, import.meta.url), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.profile;
};

const SETTLEMENT = { settlementAccount: '50200012345678', lastSequence: 122 };

/** The payout lines every golden fixture holds (the MT940 file has one more return). */
const PAYOUT_LINES = [
  ['DEBIT', '01MCC5RM007QX2KD9F4T', '912807471309', 250000n],
  ['DEBIT', '01MCC5RM01B8N3WZ6H2C', 'HDFCN62632800123', 1000000n],
  ['RETURN', '01MCC5RM02Y5P7GJ1R8D', '912807471400', 150000n],
];

describe('acceptStatementFile on the golden fixtures', () => {
  it.each([
    ['statement.mt940', [...PAYOUT_LINES, ['RETURN', '01MCC5RM03M4V9AS0E6K', '912807471401', 75000n]]],
    ['statement.camt053.001.02.xml', PAYOUT_LINES],
    ['statement.camt053.001.08.xml', PAYOUT_LINES],
  ])(
    'when %s is for the settlement account and follows the last statement, then it is accepted: payouts and returns become lines, charges and the top-up are set aside',
    (name, expected) => {
      const file = acceptStatementFile(fixture(name), SETTLEMENT);
      expect(file.ok).toBe(true);
      if (!file.ok) return;
      expect(file.lines.map((l) => [l.type, l.reference, l.utr, l.amountPaise])).toEqual(expected);
      expect(file.lines.every((l) => l.valueDate === '2026-11-24')).toBe(true);
      expect(file.valueDates).toEqual(['2026-11-24']);
      expect(file.setAside.map((s) => [s.entry.amountPaise, s.why])).toEqual([
        [590n, 'a bank charge'],
        [106n, 'a bank charge'],
        [50000000n, 'money in that is not a return'],
      ]);
      expect(file.notes).toEqual([]);
    },
  );

  it.each([
    ['statement-balance-error.mt940', '489743.04 = 1489743.04, but the closing balance is 1489744.04'],
    ['statement-balance-error.camt053.001.02.xml', '488993.04 = 1488993.04, but the closing balance is 1488993.03'],
    ['statement-balance-error.camt053.001.08.xml', '488993.04 = 1488993.04, but the closing balance is 1488993.03'],
  ])('when %s does not add up, then it is refused whole with the amounts', (name, amounts) => {
    expect(acceptStatementFile(fixture(name), SETTLEMENT)).toEqual({
      ok: false,
      reason: `statement "STMT2611240123": opening balance 1000000.00 + entries ${amounts}`,
    });
  });

  it.each([
    [
      'hdfc-style.csv',
      'hdfc-style',
      'the statement is for account 50200012345678: no settlement account given to check it against',
    ],
    [
      'icici-style.csv',
      'icici-style',
      'the statement is for account 000405012345: no settlement account given to check it against',
    ],
  ])(
    'when %s is read with its profile, then the same payout lines come out and what was not checked is said',
    (name, bank, accountNote) => {
      const file = acceptStatementFile(fixture(name), { profile: profile(bank) });
      expect(file.ok).toBe(true);
      if (!file.ok) return;
      expect(file.lines.map((l) => [l.type, l.reference, l.utr, l.amountPaise])).toEqual(PAYOUT_LINES);
      expect(file.notes).toEqual([accountNote, 'the file has no statement numbers: continuity is not checked']);
    },
  );

  it('when a bank CSV export comes without a profile, then it is refused: only its profile can read it', () => {
    const file = acceptStatementFile(fixture('hdfc-style.csv'));
    expect(file).toEqual({
      ok: false,
      reason: 'not MT940, camt.053 or the canonical CSV: a bank CSV export is read with its profile (--profile)',
    });
  });

  it('when a running balance printed by the bank disagrees with the rows before it, then the export is refused at that line', () => {
    const text = fixture('hdfc-style.csv').replace('"9,87,494.10"', '"9,87,495.10"');
    expect(acceptStatementFile(text, { profile: profile('hdfc-style') })).toEqual({
      ok: false,
      reason:
        'the statement, line 10: the bank prints a balance of 987495.10 after it, but the entries before it make 987494.10',
    });
  });

  it('when the canonical CSV is given, then its lines come through unchanged and the missing balances are noted', () => {
    const text = 'reference,utr,amount,type,value_date\nAK12345678901234,998877665544,101.00,DEBIT,2026-11-23\n';
    const file = acceptStatementFile(text);
    expect(file).toMatchObject({
      ok: true,
      lines: [
        {
          lineNumber: 2,
          reference: 'AK12345678901234',
          utr: '998877665544',
          amountPaise: 10100n,
          type: 'DEBIT',
          valueDate: '2026-11-23',
        },
      ],
      valueDates: ['2026-11-23'],
      notes: [
        'the statement carries no balances: opening + entries = closing is not checked',
        'the statement does not say which account it is for',
        'the file has no statement numbers: continuity is not checked',
      ],
    });
  });
});

describe('checkStatementFile', () => {
  const statement = (over: Partial<BankStatement>): BankStatement => ({
    format: 'mt940',
    id: null,
    account: 'HDFC0000060/50200012345678',
    sequence: 123,
    statementDate: '2026-11-24',
    openingBalancePaise: 0n,
    closingBalancePaise: 0n,
    currency: 'INR',
    entries: [],
    ...over,
  });

  it('when the account is another one, then the file is refused naming both', () => {
    expect(checkStatementFile([statement({})], { settlementAccount: '50200099999999' })).toEqual({
      ok: false,
      reason: 'statement 123 is for account HDFC0000060/50200012345678, not the settlement account 50200099999999',
    });
  });

  it('when the account is written with the bank code before a slash or with spaces, then it is the settlement account', () => {
    expect(checkStatementFile([statement({})], { settlementAccount: '5020 0012 3456 78', lastSequence: 122 })).toEqual({
      ok: true,
      notes: [],
    });
  });

  it('when no settlement account or last statement is given, then the file is accepted and both are reported', () => {
    expect(checkStatementFile([statement({})])).toEqual({
      ok: true,
      notes: [
        'statement 123 is for account HDFC0000060/50200012345678: no settlement account given to check it against',
        'statement 123 is not checked against an earlier one: none is stored',
      ],
    });
  });

  it.each([
    [120, [123], 'missing statements 121 to 122'],
    [121, [123], 'missing statement 122'],
    [122, [123, 125], 'missing statement 124'],
    [122, [123, 124, 123], 'statement 123 comes after statement 124: the file is out of order'],
  ])('when the last stored statement is %i and the file holds %j, then it is refused: %s', (last, numbers, reason) => {
    const statements = numbers.map((sequence) => statement({ sequence }));
    expect(checkStatementFile(statements, { lastSequence: last })).toEqual({ ok: false, reason });
  });

  it('when a statement continues on a second page under the same number, then that is no gap', () => {
    const statements = [123, 123, 124].map((sequence) => statement({ sequence }));
    expect(checkStatementFile(statements, { settlementAccount: '50200012345678', lastSequence: 122 })).toEqual({
      ok: true,
      notes: [],
    });
  });

  it('when the statement was read before, then it is accepted and said to be a repeat', () => {
    expect(checkStatementFile([statement({})], { settlementAccount: '50200012345678', lastSequence: 123 })).toEqual({
      ok: true,
      notes: ['statement 123 is not after the last stored statement 123: a statement read again'],
    });
  });

  it('when the statement is not in rupees, then it is refused', () => {
    expect(checkStatementFile([statement({ currency: 'USD' })])).toEqual({
      ok: false,
      reason: 'statement 123 is in USD, not INR',
    });
  });
});

describe('toStatementLines and the matcher', () => {
  it('when the MT940 fixture meets our books, then the payouts match, the coded return reverses, the narrated one is a break with nothing planned, and nothing of the charges reaches the matcher', () => {
    const file = acceptStatementFile(fixture('statement.mt940'), SETTLEMENT);
    if (!file.ok) throw new Error(file.reason);
    // Paid here on the statement's day; the two returned payouts were paid the day before.
    const book = (id: bigint, ackNo: string, amountPaise: bigint, paidOn: string): BookPayout => ({
      id,
      ackNo,
      state: 'SUCCESS',
      amountPaise,
      bankReference: null,
      settledOn: paidOn,
      sentOn: paidOn,
    });
    const items = matchStatement(
      file.lines,
      file.valueDates,
      [
        book(1n, '01MCC5RM007QX2KD9F4T', 250000n, '2026-11-24'),
        book(2n, '01MCC5RM01B8N3WZ6H2C', 1000000n, '2026-11-24'),
        book(3n, '01MCC5RM02Y5P7GJ1R8D', 150000n, '2026-11-23'),
        book(4n, '01MCC5RM03M4V9AS0E6K', 75000n, '2026-11-23'),
      ],
      { today: '2026-11-25' },
    );
    expect(items.map((i) => [i.class, i.reference, i.action?.kind])).toEqual([
      ['matched', '01MCC5RM007QX2KD9F4T', undefined],
      ['matched', '01MCC5RM01B8N3WZ6H2C', undefined],
      ['return', '01MCC5RM02Y5P7GJ1R8D', 'reverse'],
      ['return_without_bank_code', '01MCC5RM03M4V9AS0E6K', undefined],
    ]);
    expect(planActions(items).map((a) => a.ackNo)).toEqual(['01MCC5RM02Y5P7GJ1R8D']);
  });

  it.each(['statement.camt053.001.02.xml', 'statement.camt053.001.08.xml'])(
    'when the return of %s loses its return code and says REV, then its narration alone makes it a break with nothing planned',
    (name) => {
      const uncoded = fixture(name)
        .replace(
          '<SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn><Prtry><Cd>NRTI</Cd></Prtry>',
          '<SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn><Prtry><Cd>NTRF</Cd></Prtry>',
        )
        .replace('<Ustrd>ACCOUNT CLOSED</Ustrd>', '<Ustrd>REV ACCOUNT CLOSED</Ustrd>');
      expect(uncoded).not.toBe(fixture(name));
      const file = acceptStatementFile(uncoded, SETTLEMENT);
      if (!file.ok) throw new Error(file.reason);
      const returned: BookPayout = {
        id: 3n,
        ackNo: '01MCC5RM02Y5P7GJ1R8D',
        state: 'SUCCESS',
        amountPaise: 150000n,
        bankReference: null,
        settledOn: '2026-11-23',
        sentOn: '2026-11-23',
      };
      const items = matchStatement(file.lines, file.valueDates, [returned], { today: '2026-11-25' });
      expect(items.filter((i) => i.line?.type === 'RETURN').map((i) => [i.class, i.reference, i.action])).toEqual([
        ['return_without_bank_code', '01MCC5RM02Y5P7GJ1R8D', undefined],
      ]);
      expect(planActions(items)).toEqual([]);
    },
  );

  it("when a payout entry has no UTR in its narration, then the bank reference stands in; a debit or return without our reference goes to the matcher under the bank's name for it, unless the bank gave it none", () => {
    const entry = (lineNumber: number, over: Partial<BankEntry>): BankEntry => ({
      lineNumber,
      valueDate: '2026-11-24',
      type: 'DEBIT',
      amountPaise: 100n,
      narration: '',
      class: 'unknown',
      ...over,
    });
    const statement: BankStatement = {
      format: 'camt.053.001.08',
      id: 'S1',
      account: null,
      sequence: null,
      statementDate: '2026-11-25',
      openingBalancePaise: null,
      closingBalancePaise: null,
      currency: 'INR',
      entries: [
        entry(9, {
          reference: '01MCC5RM007QX2KD9F4T',
          bankReference: 'HDFC2611240000001',
          narration: 'PAYOUT 01MCC5RM007QX2KD9F4T',
          class: 'payout',
        }),
        entry(14, { bankReference: 'HDFC2611240000002', utr: '912807471309', narration: 'IMPS/912807471309' }),
        entry(17, { utr: '912807471310', narration: 'IMPS/912807471310' }),
        entry(20, { type: 'RETURN', narration: 'RETURN', class: 'return' }),
        entry(23, {}),
      ],
    };
    expect(toStatementLines([statement])).toEqual({
      lines: [
        {
          lineNumber: 9,
          reference: '01MCC5RM007QX2KD9F4T',
          utr: 'HDFC2611240000001',
          amountPaise: 100n,
          type: 'DEBIT',
          valueDate: '2026-11-24',
          narration: 'PAYOUT 01MCC5RM007QX2KD9F4T',
        },
        ...[
          [14, 'HDFC2611240000002', '912807471309', 'DEBIT', 'IMPS/912807471309'],
          [17, '912807471310', '912807471310', 'DEBIT', 'IMPS/912807471310'],
          [20, 'line 20', '', 'RETURN', 'RETURN'],
        ].map(([lineNumber, reference, utr, type, narration]) => ({
          lineNumber,
          reference,
          withoutOurReference: true,
          utr,
          amountPaise: 100n,
          type,
          valueDate: '2026-11-24',
          narration,
        })),
      ],
      // The statement's own date counts too: a payout of ours settled that day and absent is a break.
      valueDates: ['2026-11-24', '2026-11-25'],
      setAside: [
        { entry: statement.entries[4], why: 'a debit without our reference, a UTR, a bank reference or a narration' },
      ],
    });
    // In a run of several files, each line and entry set aside names its file, and so does a line's place.
    const second = toStatementLines([statement], 2);
    expect(second.lines.map((l) => [l.file, l.reference])).toEqual([
      [2, '01MCC5RM007QX2KD9F4T'],
      [2, 'HDFC2611240000002'],
      [2, '912807471310'],
      [2, 'file 2 line 20'],
    ]);
    expect(second.setAside.map((s) => s.file)).toEqual([2]);
  });
});
