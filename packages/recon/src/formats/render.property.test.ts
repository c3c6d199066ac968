import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../test/properties/property-replay.js';
import { checkStatementFile, readStatementFile } from '../statement-file.js';
import { parseBankProfile } from './bank-csv.js';
import { signedAmount, type BankEntry, type StatementFormat } from './bank-statement.js';
import { renderCamt053 } from './render-camt053.js';
import { renderMt940, type RenderableStatement } from './render-mt940.js';

type Entry = RenderableStatement['entries'][number];

const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LETTERS = 'ABCDEFGHJKMNPQRSTVWXYZ';
const chars = (alphabet: string, length: number) =>
  fc.array(fc.constantFrom(...Array.from(alphabet)), { minLength: length, maxLength: length }).map((c) => c.join(''));

/** An Ack_no as newAckNo writes it in this era: a time prefix starting 0, then letters and digits. */
const reference = fc
  .tuple(fc.constantFrom(...Array.from(LETTERS)), chars(BASE32, 18))
  .map(([letter, rest]) => `0${letter}${rest}`);
/** An IMPS/UPI RRN or a NEFT UTR. */
const utr = fc.oneof(
  chars('0123456789', 12),
  fc.tuple(chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 4), chars('0123456789', 11)).map(([bank, n]) => `${bank}N${n}`),
);
// Words a payout's narration carries that say nothing about charges or returns.
const word = fc.constantFrom(
  'RAVI',
  'KUMAR',
  'PRIYA',
  'SHARMA',
  'ACME',
  'TRADING',
  'PAYOUT',
  'VENDOR',
  'INVOICE',
  'P2A',
);
const separator = fc.constantFrom('/', '-', ' ', '.');
/** Words and keys joined by separators, starting and ending with a word (as banks write narrations). */
const narrationOf = (parts: fc.Arbitrary<string[]>) =>
  fc
    .tuple(word, parts, fc.array(word, { maxLength: 6 }), fc.array(separator, { minLength: 10, maxLength: 10 }), word)
    .map(([first, keys, words, seps, last]) =>
      [first, ...keys, ...words, last].reduce((text, part, i) => `${text}${seps[i % seps.length]!}${part}`),
    );

const date = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const amountPaise = fc.bigInt({ min: 1n, max: 10n ** 13n });
const bankReference = fc.option(chars(BASE32, 16), { nil: undefined });

const payout = fc.record({ valueDate: date, amountPaise, utr, reference, bankReference }).chain((e) =>
  narrationOf(fc.constant([e.utr, e.reference])).map((narration): Entry => ({
    ...strip(e),
    type: 'DEBIT',
    narration,
    class: 'payout',
  })),
);
const returned = fc
  .record({ valueDate: date, amountPaise, utr: fc.option(utr, { nil: undefined }), reference, bankReference })
  .chain((e) =>
    narrationOf(fc.constant([e.utr, e.reference].filter((k) => k !== undefined))).map((narration): Entry => ({
      ...strip(e),
      type: 'RETURN',
      narration,
      class: 'return',
    })),
  );
const charge = fc
  .record({
    valueDate: date,
    amountPaise,
    bankReference,
    type: fc.constantFrom('DEBIT' as const, 'CREDIT' as const),
    narration: fc.constantFrom('IMPS CHARGES', 'GST ON CHARGES', 'SMS CHG', 'NEFT COMMISSION'),
  })
  .map((e): Entry => ({ ...strip(e), class: 'bank_charge' }));
const unkeyed = fc
  .record({
    valueDate: date,
    amountPaise,
    utr,
    bankReference,
    type: fc.constantFrom('DEBIT' as const, 'CREDIT' as const),
  })
  .chain((e) =>
    narrationOf(fc.constant([e.utr])).map((narration): Entry => ({ ...strip(e), narration, class: 'unknown' })),
  );

const statement = fc
  .record({
    id: chars(BASE32, 12),
    account: fc.integer({ min: 9, max: 18 }).chain((n) => chars('0123456789', n)),
    sequence: fc.integer({ min: 1, max: 99_999 }),
    statementDate: date,
    openingBalancePaise: fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }),
    entries: fc.array(fc.oneof(payout, returned, charge, unkeyed), { maxLength: 12 }),
  })
  .map((s): RenderableStatement => ({
    ...s,
    currency: 'INR',
    closingBalancePaise: s.entries.reduce((balance, e) => balance + signedAmount(e), s.openingBalancePaise),
  }));

/** Drops the keys the generator left undefined, as a reader leaves them out. */
function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const RENDERERS: [StatementFormat, (s: RenderableStatement) => string][] = [
  ['mt940', renderMt940],
  ['camt.053.001.02', (s) => renderCamt053(s, '02')],
  ['camt.053.001.08', (s) => renderCamt053(s, '08')],
];

describe('statement renderers and readers: properties', () => {
  it.each(RENDERERS)(
    'when any statement is written as %s and read back, then the same statement and entries come back, in file order, and it meets the whole-file checks',
    (format, render) => {
      assertProperty(
        fc.property(statement, (original) => {
          const read = readStatementFile(render(original));
          expect(read.ok && read.statements.length).toBe(1);
          if (!read.ok) return;
          const [back] = read.statements as [(typeof read.statements)[number]];
          const { entries, ...rest } = back;
          expect(rest).toEqual({ ...original, entries: undefined, format });
          expect(entries.map(({ lineNumber: _n, ...e }: BankEntry) => e)).toEqual(original.entries);
          const lineNumbers = entries.map((e) => e.lineNumber);
          expect(lineNumbers).toEqual([...lineNumbers].sort((a, b) => a - b));
          expect(new Set(lineNumbers).size).toBe(lineNumbers.length);
          expect(
            checkStatementFile(read.statements, {
              settlementAccount: original.account,
              lastSequence: original.sequence - 1,
            }),
          ).toEqual({ ok: true, notes: [] });
        }),
        200,
        import.meta.url,
      );
    },
  );

  it('when any statement is written as a bank CSV export and read back with its profile, then the same entries and running balances come back', () => {
    assertProperty(
      fc.property(statement, (generated) => {
        // What an export holds: the bank's transaction ids, and returns that its code column says are returns.
        const entries = generated.entries.map((e, i) => ({
          ...e,
          bankReference: `S${String(i).padStart(8, '0')}`,
        }));
        const original = { ...generated, entries };
        const read = readStatementFile(renderBankCsv(original), EXPORT_PROFILE);
        expect(read.ok && read.statements.length).toBe(1);
        if (!read.ok) return;
        let balance = original.openingBalancePaise;
        const expected = entries.map((e) => ({ ...e, balanceAfterPaise: (balance += signedAmount(e)) }));
        const empty = entries.length === 0;
        expect(read.statements[0]).toEqual({
          format: 'bank-csv',
          id: null,
          account: original.account,
          sequence: null,
          statementDate: null,
          openingBalancePaise: empty ? null : original.openingBalancePaise,
          closingBalancePaise: empty ? null : original.closingBalancePaise,
          currency: 'INR',
          entries: expected.map((e, i) => ({ ...e, lineNumber: i + 4 })),
        });
        expect(checkStatementFile(read.statements, { settlementAccount: original.account }).ok).toBe(true);
      }),
      200,
      import.meta.url,
    );
  });
});

const parsedProfile = parseBankProfile(
  JSON.stringify({
    name: 'property-export',
    dateFormat: 'DD-MMM-YYYY',
    columns: {
      valueDate: 'Value Date',
      narration: 'Remarks',
      bankReference: 'Tran. Id',
      balance: 'Balance',
      code: 'Txn Code',
    },
    amount: { style: 'indicator', column: 'Amount', indicatorColumn: 'Cr/Dr', debit: ['DR'], credit: ['CR'] },
    accountPattern: 'Transactions List - .* - ([0-9]{9,18})$',
    codes: { return: ['RET'] },
  }),
);
if (!parsedProfile.ok) throw new Error(parsedProfile.reason);
const EXPORT_PROFILE = parsedProfile.profile;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The statement as EXPORT_PROFILE's bank would export it: a preamble, quoted remarks, Indian digit grouping. */
function renderBankCsv(statement: RenderableStatement): string {
  const lines = [
    'DETAILED STATEMENT',
    `Transactions List - ACME PAYOUTS (INR) - ${statement.account}`,
    'Tran. Id,Value Date,Txn Code,Remarks,Amount,Cr/Dr,Balance',
  ];
  let balance = statement.openingBalancePaise;
  for (const entry of statement.entries) {
    balance += signedAmount(entry);
    const [year, month, day] = entry.valueDate.split('-');
    lines.push(
      [
        entry.bankReference,
        `${day}-${MONTHS[Number(month) - 1]}-${year}`,
        entry.type === 'RETURN' ? 'RET' : 'TRF',
        `"${entry.narration.replaceAll('"', '""')}"`,
        `"${indianGrouping(entry.amountPaise)}"`,
        entry.type === 'DEBIT' ? 'DR' : 'CR',
        `"${balance < 0n ? '-' : ''}${indianGrouping(balance < 0n ? -balance : balance)}"`,
      ].join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** 1234567.89 rupees as 12,34,567.89: the last three digits, then pairs. */
function indianGrouping(paise: bigint): string {
  const rupees = (paise / 100n).toString();
  const head = rupees.slice(0, -3);
  const grouped = head === '' ? rupees : `${head.replace(/\B(?=([0-9]{2})+$)/g, ',')},${rupees.slice(-3)}`;
  return `${grouped}.${(paise % 100n).toString().padStart(2, '0')}`;
}
