import { describe, expect, it } from 'vitest';
import { BulkCsvRefused, judgeBulkCsvLines, readBulkCsv } from '@payout/use-cases';

// The one reader of bulk CSV files (docs/operations.md, "Bulk payouts from a file") serves two callers: the
// operator's upload and CLI refuse a file with any bad line, naming each; the merchant's dashboard preview
// (docs/dashboard.md, "Bulk upload") shows the bad lines and sends the others. Both judge lines alike.

const HEADER = 'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name';
const FILE = [
  HEADER,
  'IMPS,900001,10.00,123456789012,HDFC0001234,,Asha Kumar',
  'IMPS,900002,ten,123456789012,HDFC0001234,,Asha Kumar',
  'UPI,900001,5.00,,,asha.kumar@okhdfc,Asha Kumar',
  'UPI,900003,5.00,,,asha.kumar@okhdfc,Asha Kumar',
].join('\n');

describe('a file with bad lines', () => {
  it('is judged line by line for the dashboard: the payouts kept in order, each refusal with its line', () => {
    const { lines, refused } = judgeBulkCsvLines(FILE);
    expect(lines.map((l) => [l.line, l.item.TransactionID])).toEqual([
      [2, '900001'],
      [5, '900003'],
    ]);
    expect(refused.map((r) => r.line)).toEqual([3, 4]);
    expect(refused[0]!.why).toMatch(/Amount/);
    expect(refused[1]!.why).toBe('TransactionID 900001 is already on line 2');
  });

  it("is refused whole for the operator, with the same lines' reasons", () => {
    expect(() => readBulkCsv(FILE)).toThrow(BulkCsvRefused);
    expect(() => readBulkCsv(FILE)).toThrow(
      /file refused, nothing was reserved:\nline 3: .*Amount.*\nline 4: TransactionID 900001 is already on line 2$/s,
    );
  });

  it('is refused whole by both when the header is wrong or there are no lines', () => {
    expect(() => judgeBulkCsvLines('Mode,Nope\nIMPS,1')).toThrow(/line 1: unknown column Nope/);
    expect(() => judgeBulkCsvLines(HEADER)).toThrow(/no payouts after the header line/);
  });
});
