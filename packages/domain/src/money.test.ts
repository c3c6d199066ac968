import { describe, expect, it } from 'vitest';
import { formatRupees, parseRupees, rupees } from './money.js';

describe('parseRupees', () => {
  it.each([
    ['101', 10100n],
    ['101.5', 10150n],
    ['101.50', 10150n],
    ['0.01', 1n],
    ['0', 0n],
    ['500000.00', 50000000n],
    ['999999999999999.99', 99999999999999999n],
  ])('when given %s, then it is %s paise exactly', (text, paise) => {
    expect(parseRupees(text)).toBe(paise);
  });

  it.each([
    ['three fraction digits', '101.505'],
    ['a negative amount', '-1.00'],
    ['a plus sign', '+1.00'],
    ['an exponent', '1e3'],
    ['an upper-case exponent', '1.5E2'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['an empty string', ''],
    ['blanks around it', ' 101.00 '],
    ['a trailing point', '101.'],
    ['a leading point', '.50'],
    ['a leading zero', '0101.00'],
    ['a thousands separator', '1,000.00'],
    ['hex', '0x10'],
    ['sixteen integer digits', '1000000000000000'],
  ])('when given %s, then it is refused', (_label, text) => {
    expect(parseRupees(text)).toBeUndefined();
  });
});

describe('formatRupees', () => {
  it.each([
    [10150n, '101.50'],
    [10100n, '101.00'],
    [1n, '0.01'],
    [0n, '0.00'],
    [-5n, '-0.05'],
    [-12345n, '-123.45'],
    [99999999999999999n, '999999999999999.99'],
  ])('when given %s paise, then it writes %s', (paise, text) => {
    expect(formatRupees(paise)).toBe(text);
  });

  it('when a parsed amount is formatted, then it reads back to the same paise', () => {
    for (const text of ['1', '1.1', '1.10', '476.5', '4765.00']) {
      const paise = parseRupees(text)!;
      expect(parseRupees(formatRupees(paise))).toBe(paise);
    }
  });
});

describe('rupees', () => {
  it('when given whole rupees, then it returns paise', () => {
    expect(rupees(500000)).toBe(50000000n);
  });

  it('when given a fraction, then it throws', () => {
    expect(() => rupees(1.5)).toThrow(RangeError);
  });
});
