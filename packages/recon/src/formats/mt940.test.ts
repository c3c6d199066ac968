import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMt940 } from './mt940.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../test/recon/fixtures/${name}`, import.meta.url), 'utf8');

describe('readMt940', () => {
  it('when the golden MT940 file is read, then every :61: is an entry with its line, keys from the :86: narration and its class', () => {
    const read = readMt940(fixture('statement.mt940'));
    expect(read).toEqual({
      ok: true,
      statements: [
        {
          format: 'mt940',
          id: 'STMT2611240123',
          account: 'HDFC0000060/50200012345678',
          sequence: 123,
          statementDate: '2026-11-24',
          openingBalancePaise: 100000000n,
          closingBalancePaise: 148974304n,
          currency: 'INR',
          entries: [
            {
              lineNumber: 6,
              valueDate: '2026-11-24',
              type: 'DEBIT',
              amountPaise: 250000n,
              reference: '01MCC5RM007QX2KD9F4T',
              utr: '912807471309',
              bankReference: '912807471309',
              narration: 'IMPS/P2A/912807471309/RAVI KUMAR/SBIN0001234/01MCC5RM007QX2KD9F4T',
              class: 'payout',
            },
            {
              lineNumber: 8,
              valueDate: '2026-11-24',
              type: 'DEBIT',
              amountPaise: 1000000n,
              // The reference is on the :86: field's second line.
              reference: '01MCC5RM01B8N3WZ6H2C',
              utr: 'HDFCN62632800123',
              bankReference: 'HDFCN62632800123',
              narration: 'NEFT DR-HDFCN62632800123-PRIYA SHARMA-ICIC0000456-/INF/PAYOUT/01MCC5RM01B8N3WZ6H2C',
              class: 'payout',
            },
            {
              lineNumber: 11,
              valueDate: '2026-11-24',
              type: 'DEBIT',
              amountPaise: 590n,
              narration: 'IMPS CHARGES 24-11-2026',
              class: 'bank_charge',
            },
            {
              lineNumber: 13,
              valueDate: '2026-11-24',
              type: 'DEBIT',
              amountPaise: 106n,
              narration: 'GST ON CHARGES 24-11-2026',
              class: 'bank_charge',
            },
            {
              lineNumber: 15,
              valueDate: '2026-11-24',
              type: 'RETURN',
              amountPaise: 150000n,
              reference: '01MCC5RM02Y5P7GJ1R8D',
              utr: '912807471400',
              bankReference: '912807471400',
              narration: 'IMPS RETURN/912807471400/01MCC5RM02Y5P7GJ1R8D/ACCOUNT CLOSED',
              class: 'return',
            },
            {
              lineNumber: 17,
              valueDate: '2026-11-24',
              // NTRF, not a return code: only the narration says "REV", and anyone sending money writes that.
              type: 'CREDIT',
              amountPaise: 75000n,
              reference: '01MCC5RM03M4V9AS0E6K',
              utr: '912807471401',
              bankReference: '912807471401',
              narration: 'REV-IMPS-912807471401-01MCC5RM03M4V9AS0E6K-INVALID ACCOUNT',
              class: 'uncoded_return',
            },
            {
              lineNumber: 19,
              valueDate: '2026-11-24',
              type: 'CREDIT',
              amountPaise: 50000000n,
              utr: 'UTIBN62632800777',
              bankReference: 'UTIBN62632800777',
              narration: 'NEFT CR-UTIBN62632800777-ACME TRADING PVT LTD-WALLET FUNDING',
              class: 'unknown',
            },
          ],
        },
      ],
    });
  });

  it('when the file starts with a byte order mark, then it reads the same', () => {
    expect(readMt940(`\uFEFF${fixture('statement.mt940')}`)).toEqual(readMt940(fixture('statement.mt940')));
  });

  it('when the closing balance disagrees with the entries, then the reader still reads it: the balance check is the whole-file check', () => {
    const read = readMt940(fixture('statement-balance-error.mt940'));
    expect(read.ok && read.statements[0]!.closingBalancePaise).toBe(148974404n);
  });

  it('when a file holds two statements, then both are read, with the line numbers of the whole file', () => {
    const text = [
      ':20:S1',
      ':25:50200012345678',
      ':28C:7/1',
      ':60F:D261123INR10,00',
      ':61:261124D1,50NTRFNONREF',
      ':86:IMPS 912807471309 01MCC5RM007QX2KD9F4T',
      ':62F:D261124INR11,50',
      '-',
      ':20:S2',
      ':25:50200012345678',
      ':28C:8/1',
      ':60F:D261124INR11,50',
      ':61:2611252511RC0,50NTRFNONREF',
      ':61:2611252511C12,NTRFNONREF',
      ':62F:C261125INR0,',
      '',
    ].join('\n');
    const read = readMt940(text);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.statements.map((s) => [s.sequence, s.openingBalancePaise, s.closingBalancePaise])).toEqual([
      [7, -1000n, -1150n],
      [8, -1150n, 0n],
    ]);
    const [first, second] = read.statements as [(typeof read.statements)[0], (typeof read.statements)[0]];
    expect(first.entries.map((e) => [e.lineNumber, e.type, e.amountPaise, e.class])).toEqual([
      [5, 'DEBIT', 150n, 'payout'],
    ]);
    // RC reverses a credit: money goes out. "12," is twelve rupees.
    expect(second.entries.map((e) => [e.lineNumber, e.type, e.amountPaise, e.class])).toEqual([
      [13, 'DEBIT', 50n, 'unknown'],
      [14, 'CREDIT', 1200n, 'unknown'],
    ]);
  });

  it.each([
    ['a mandatory tag is missing', ':20:S1\n:28C:1\n:60F:C261123INR1,00\n:62F:C261123INR1,00\n', /Mandatory tag 25/],
    [
      'a :61: date is not a date',
      ':20:S1\n:25:A1\n:28C:1\n:60F:C261123INR1,00\n:61:261332D1,00NTRFNONREF\n:62F:C261123INR0,00\n',
      /line 5: the :61: line/,
    ],
    [
      'an amount is zero',
      ':20:S1\n:25:A1\n:28C:1\n:60F:C261123INR1,00\n:61:261123D0,00NTRFNONREF\n:62F:C261123INR1,00\n',
      /line 5/,
    ],
    [
      'the opening balance has three decimals',
      ':20:S1\n:25:A1\n:28C:1\n:60F:C261123INR1,001\n:62F:C261123INR1,00\n',
      /balance cannot be read/,
    ],
  ])('when %s, then the file is refused with why', (_case, text, reason) => {
    const read = readMt940(text);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });
});
