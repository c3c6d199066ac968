import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBankProfile, readBankCsv, type BankCsvProfile } from './bank-csv.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../test/recon/fixtures/${name}`, import.meta.url), 'utf8');
const shippedProfile = (name: string): BankCsvProfile => {
  const parsed = parseBankProfile(readFileSync(new URL(`../../profiles/${name}.json`, import.meta.url), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.profile;
};

/** A small profile for the cases below: one signed amount column, ISO dates. */
const SIGNED: BankCsvProfile = {
  name: 'signed-test',
  delimiter: ';',
  dateFormat: 'YYYY-MM-DD',
  thousandsSeparator: '',
  currency: 'INR',
  columns: { valueDate: 'Date', narration: 'Text' },
  amount: { style: 'signed', column: 'Amount', debitsAre: 'negative' },
  endOfData: [],
  narration: {},
};

describe('bank CSV profiles', () => {
  it.each(['hdfc-style', 'icici-style'])('when the shipped profile %s is parsed, then it is valid', (name) => {
    expect(shippedProfile(name).name).toBe(name);
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['an unknown member', JSON.stringify({ ...SIGNED, sheet: 1 }), /Unrecognized key/],
    [
      'a pattern that does not compile',
      JSON.stringify({ ...SIGNED, ignoreRows: '(' }),
      /ignoreRows: not a regular expression/,
    ],
    [
      'a UTR pattern without a group',
      JSON.stringify({ ...SIGNED, narration: { utrPattern: 'IMPS-[0-9]{12}' } }),
      /narration.utrPattern: the pattern needs a capturing group/,
    ],
    ['a date format with the day twice', JSON.stringify({ ...SIGNED, dateFormat: 'DD/DD/YYYY' }), /dateFormat/],
    ['an unknown amount style', JSON.stringify({ ...SIGNED, amount: { style: 'columns' } }), /amount/],
  ])('when a profile is %s, then it is refused with where', (_case, json, reason) => {
    const parsed = parseBankProfile(json);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });
});

describe('readBankCsv', () => {
  it('when the HDFC-style export is read, then the preamble gives the account, separator and summary rows are skipped, and balances come from the running balance', () => {
    const read = readBankCsv(fixture('hdfc-style.csv'), shippedProfile('hdfc-style'));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const [statement] = read.statements as [(typeof read.statements)[0]];
    expect({ ...statement, entries: undefined }).toEqual({
      format: 'bank-csv',
      id: null,
      account: '50200012345678',
      sequence: null,
      statementDate: null,
      openingBalancePaise: 100000000n,
      closingBalancePaise: 148899304n,
      currency: 'INR',
      entries: undefined,
    });
    expect(statement.entries.map((e) => [e.lineNumber, e.type, e.class, e.amountPaise, e.reference, e.utr])).toEqual([
      // "XXXXXXXX1234" is a masked account, not a reference.
      [8, 'DEBIT', 'payout', 250000n, '01MCC5RM007QX2KD9F4T', '912807471309'],
      [9, 'DEBIT', 'payout', 1000000n, '01MCC5RM01B8N3WZ6H2C', 'HDFCN62632800123'],
      [10, 'DEBIT', 'bank_charge', 590n, undefined, undefined],
      [11, 'DEBIT', 'bank_charge', 106n, undefined, undefined],
      // The export has no transaction code column: a return it narrates is for a person to confirm.
      [12, 'CREDIT', 'uncoded_return', 150000n, '01MCC5RM02Y5P7GJ1R8D', '912807471400'],
      [13, 'CREDIT', 'unknown', 50000000n, undefined, 'UTIBN62632800777'],
    ]);
    expect(statement.entries[0]).toMatchObject({
      valueDate: '2026-11-24',
      bankReference: '0000912807471309',
      balanceAfterPaise: 99750000n,
      narration: 'IMPS-912807471309-RAVI KUMAR-SBIN-XXXXXXXX1234-01MCC5RM007QX2KD9F4T',
    });
  });

  it('when the ICICI-style export is read, then the Cr/Dr column gives the direction and DD-MMM-YYYY dates are read', () => {
    const read = readBankCsv(fixture('icici-style.csv'), shippedProfile('icici-style'));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const [statement] = read.statements as [(typeof read.statements)[0]];
    expect([statement.account, statement.openingBalancePaise, statement.closingBalancePaise]).toEqual([
      '000405012345',
      100000000n,
      148899304n,
    ]);
    expect(
      statement.entries.map((e) => [e.lineNumber, e.valueDate, e.type, e.class, e.reference, e.bankReference]),
    ).toEqual([
      [4, '2026-11-24', 'DEBIT', 'payout', '01MCC5RM007QX2KD9F4T', 'S81234561'],
      [5, '2026-11-24', 'DEBIT', 'payout', '01MCC5RM01B8N3WZ6H2C', 'S81234562'],
      [6, '2026-11-24', 'DEBIT', 'bank_charge', undefined, 'S81234563'],
      [7, '2026-11-24', 'DEBIT', 'bank_charge', undefined, 'S81234564'],
      [8, '2026-11-24', 'CREDIT', 'uncoded_return', '01MCC5RM02Y5P7GJ1R8D', 'S81234565'],
      [9, '2026-11-24', 'CREDIT', 'unknown', undefined, 'S81234566'],
    ]);
  });

  it('when the profile has a signed amount column, then a negative amount is a debit and the file has no balances', () => {
    const read = readBankCsv(
      'Date;Text;Amount\n2026-11-24;IMPS 912807471309 01MCC5RM007QX2KD9F4T;-101.00\n2026-11-24;TOP UP;5000\n',
      SIGNED,
    );
    expect(read.ok && read.statements[0]).toMatchObject({
      openingBalancePaise: null,
      closingBalancePaise: null,
      account: null,
      entries: [
        { lineNumber: 2, type: 'DEBIT', amountPaise: 10100n, class: 'payout', utr: '912807471309' },
        { lineNumber: 3, type: 'CREDIT', amountPaise: 500000n, class: 'unknown' },
      ],
    });
  });

  it('when the profile names a code column, then only a row whose code is a return code is a return; a narrated "REV" is not', () => {
    const parsed = parseBankProfile(
      JSON.stringify({ ...SIGNED, columns: { ...SIGNED.columns, code: 'Code' }, codes: { return: ['RET'] } }),
    );
    if (!parsed.ok) throw new Error(parsed.reason);
    const read = readBankCsv(
      [
        'Date;Code;Text;Amount',
        '2026-11-24;RET;IMPS 912807471400 01MCC5RM02Y5P7GJ1R8D ACCOUNT CLOSED;15.00',
        '2026-11-24;TRF;REV 01MCC5RM03M4V9AS0E6K;7.50',
        '2026-11-24;NRTI;IMPS 912807471402;1.00',
        '',
      ].join('\n'),
      parsed.profile,
    );
    expect(read.ok && read.statements[0]!.entries.map((e) => [e.lineNumber, e.type, e.class])).toEqual([
      [2, 'RETURN', 'return'],
      [3, 'CREDIT', 'uncoded_return'],
      [4, 'RETURN', 'return'],
    ]);
  });

  it('when a profile lists codes without the column that holds them, then it is refused with where', () => {
    expect(parseBankProfile(JSON.stringify({ ...SIGNED, codes: { return: ['RET'] } }))).toEqual({
      ok: false,
      reason: 'the profile is not valid: codes: codes need the column that holds them: columns.code',
    });
  });

  it('when the profile says where the UTR and the reference sit, then only those places count', () => {
    const profile: BankCsvProfile = {
      ...SIGNED,
      narration: { utrPattern: 'RRN:([0-9]{12})', referencePattern: 'REF:([A-Z0-9]{12,20})' },
    };
    const read = readBankCsv(
      'Date;Text;Amount\n2026-11-24;111122223333 RRN:912807471309 REF:ABCDEF123456;-1.00\n',
      profile,
    );
    expect(read.ok && read.statements[0]!.entries[0]).toMatchObject({ utr: '912807471309', reference: 'ABCDEF123456' });
  });

  it.each([
    ['no header with the columns', 'Date;Narration;Amount\n', /no header line with the columns Date, Text, Amount/],
    [
      'a date in another format',
      'Date;Text;Amount\n24/11/2026;X;-1.00\n',
      /line 2: date "24\/11\/2026" is not YYYY-MM-DD/,
    ],
    ['an amount that is not one', 'Date;Text;Amount\n2026-11-24;X;-1.0.0\n', /line 2: amount "-1.0.0"/],
    ['a broken quote', 'Date;Text;Amount\n2026-11-24;"X;-1.00\n', /line 2: a quoted field is not closed/],
  ])('when the export has %s, then it is refused with the line', (_case, text, reason) => {
    const read = readBankCsv(text, SIGNED);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });

  it('when a row of a withdrawal/deposit export fills both sides, then the file is refused', () => {
    const text = fixture('hdfc-style.csv').replace(',"2,500.00",,', ',"2,500.00","1.00",');
    const read = readBankCsv(text, shippedProfile('hdfc-style'));
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect(read.reason).toMatch(/line 8: exactly one of "Withdrawal Amt." and "Deposit Amt." must be filled/);
  });
});
