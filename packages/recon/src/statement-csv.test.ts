import { describe, expect, it } from 'vitest';
import { formatStatement, parseStatement } from './statement-csv.js';

const HEADER = 'reference,utr,amount,type,value_date';

describe('parseStatement', () => {
  it('when the file is canonical, then every line is read with its line number, amount in paise and the dates', () => {
    const parsed = parseStatement(
      `${HEADER}\r\nAK12345678901234,998877665544,101.00,DEBIT,2026-11-23\nAK12345678901234,RET1,"101.00",RETURN,2026-11-24\n\n`,
    );
    expect(parsed).toEqual({
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
        {
          lineNumber: 3,
          reference: 'AK12345678901234',
          utr: 'RET1',
          amountPaise: 10100n,
          type: 'RETURN',
          valueDate: '2026-11-24',
        },
      ],
      valueDates: ['2026-11-23', '2026-11-24'],
    });
  });

  it('when written by formatStatement, then it parses back to the same lines', () => {
    const lines = [
      { reference: 'R1', utr: 'U1', amountPaise: 1n, type: 'DEBIT' as const, valueDate: '2026-01-31' },
      { reference: 'R2', utr: 'U2', amountPaise: 50000000n, type: 'RETURN' as const, valueDate: '2026-02-01' },
    ];
    const parsed = parseStatement(formatStatement(lines));
    expect(parsed.ok && parsed.lines.map(({ lineNumber: _n, ...l }) => l)).toEqual(lines);
  });

  it.each([
    ['', 1, /empty/],
    ['reference,utr,amount,type\nR1,U1,1.00,DEBIT', 1, /header/],
    [`${HEADER}\nR1,U1,1.00,DEBIT`, 2, /expected 5 fields, found 4/],
    [`${HEADER}\nR1,U1,1.00,DEBIT,2026-11-23\nR2,U2,1.0,DEBIT,2026-11-23`, 3, /amount "1.0"/],
    [`${HEADER}\nR1,U1,-1.00,DEBIT,2026-11-23`, 2, /amount/],
    [`${HEADER}\nR1,U1,0.00,DEBIT,2026-11-23`, 2, /more than 0.00/],
    [`${HEADER}\nR1,U1,1.00,CREDIT,2026-11-23`, 2, /type "CREDIT"/],
    [`${HEADER}\nR1,U1,1.00,DEBIT,2026-02-30`, 2, /value_date "2026-02-30"/],
    [`${HEADER}\nR 1,U1,1.00,DEBIT,2026-11-23`, 2, /reference/],
    [`${HEADER}\nR1,,1.00,DEBIT,2026-11-23`, 2, /utr/],
    [`${HEADER}\nR1,U1,"1.00,DEBIT,2026-11-23`, 2, /quoted field is not closed/],
    [`${HEADER}\nR1,U1,1.00,DEBIT,2026-11-23\n\nR2,U2,1.00,DEBIT,2026-11-23`, 3, /blank line/],
  ])('when the file is malformed (%j), then it is refused whole at line %i', (text, lineNumber, message) => {
    const parsed = parseStatement(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.lineNumber).toBe(lineNumber);
      expect(parsed.message).toMatch(message);
    }
  });
});
