import { describe, expect, it } from 'vitest';
import { paiseFromRupees, rupeesFromPaise } from './money.js';

describe('rupees and paise', () => {
  it.each([
    [0n, '0.00'],
    [5n, '0.05'],
    [10150n, '101.50'],
    [50000000n, '500000.00'],
    [123456789012345678901n, '1234567890123456789.01'],
  ])('when %s paise are written, then "%s"; and read back exactly', (paise, rupees) => {
    expect(rupeesFromPaise(paise)).toBe(rupees);
    expect(paiseFromRupees(rupees)).toBe(paise);
  });

  it('when rupee text has one fraction digit, then it is tenths', () => {
    expect(paiseFromRupees('101.5')).toBe(10150n);
  });

  it.each(['', '1.234', '-1.00', '1e3', ' 1.00', '01.00', 'abc'])('when the text is %j, then undefined', (text) => {
    expect(paiseFromRupees(text)).toBeUndefined();
  });

  it('when paise are negative, then RangeError', () => {
    expect(() => rupeesFromPaise(-1n)).toThrow(RangeError);
  });
});
