import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.js';
import { searchKeys } from './pages/search.js';
import { elapsed, ist, istDate, istDayStart, istMidnight } from './views/format.js';

describe('console helpers', () => {
  it('when a search box entry is read, then two words are MID and TransactionID, one word an Ack_no then a UTR', () => {
    expect(searchKeys('ACME01 123456')).toEqual([{ by: 'transaction', mid: 'ACME01', transactionId: '123456' }]);
    expect(searchKeys('ak2611230001abcd')).toEqual([
      { by: 'ack', ackNo: 'AK2611230001ABCD' },
      { by: 'utr', utr: 'ak2611230001abcd' },
    ]);
    expect(searchKeys('UTR-1')).toBeUndefined();
    expect(searchKeys('412345')).toEqual([{ by: 'utr', utr: '412345' }]);
    expect(searchKeys('ACME01 12x')).toBeUndefined();
    expect(searchKeys('a b c')).toBeUndefined();
  });

  it('when a CSV field holds a comma, a quote, a line break or a formula, then it is quoted or defused', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null])).toBe('a,"b,c","say ""hi""","two\nlines",\r\n');
    expect(csvLine(['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '12.50'])).toBe(
      `"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),12.50\r\n`,
    );
  });

  it('when times are shown, then they are IST and relative durations use the largest units', () => {
    const at = new Date('2026-11-23T17:05:09.000Z');
    expect(ist(at)).toBe('23 Nov 2026, 22:35:09 IST');
    expect(elapsed(at, new Date(at.getTime() + 850))).toBe('850 ms');
    expect(elapsed(at, new Date(at.getTime() + 185_000))).toBe('3 min');
    expect(elapsed(at, new Date(at.getTime() + 7_500_000))).toBe('2 h 5 min');
    expect(elapsed(at, new Date(at.getTime() + 2 * 86_400_000 + 3_600_000))).toBe('2 d 1 h');
    expect(istDayStart(at).toISOString()).toBe('2026-11-22T18:30:00.000Z');
    expect(istDate(new Date('2026-11-23T19:00:00.000Z'))).toBe('2026-11-24');
    expect(istMidnight('2026-11-24')?.toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(istMidnight('2026-02-30')).toBeUndefined();
    expect(istMidnight('24/11/2026')).toBeUndefined();
  });
});
