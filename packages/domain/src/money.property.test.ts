import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../test/properties/property-replay.js';
import { formatRupees, parseRupees } from './money.js';

// Amounts are refused above 15 integer digits (10^15 rupees, far past any real payout) so hostile input
// never reaches bigint arithmetic; below that, every amount must survive text and back exactly.
const INTEGER_DIGITS_CAP = 15;
const PAISE_CAP = 10n ** BigInt(INTEGER_DIGITS_CAP + 2);

const digit = fc.constantFrom(...Array.from('0123456789'));
const digitString = (minLength: number, maxLength: number) =>
  fc.array(digit, { minLength, maxLength }).map((d) => d.join(''));
/** A whole-rupee part as a merchant writes it: "0", or digits without a leading zero. */
const rupeePart = fc.oneof(
  fc.constant('0'),
  fc
    .tuple(fc.constantFrom(...Array.from('123456789')), digitString(0, INTEGER_DIGITS_CAP - 1))
    .map(([first, rest]) => first + rest),
);
const fractionPart = digitString(0, 2);
/** A plain decimal with at most two fraction digits: "0", "7", "101.5", "101.50", "999999999999999.99". */
const plainDecimal = fc
  .tuple(rupeePart, fractionPart)
  .map(([rupees, fraction]) => ({ rupees, fraction, text: fraction ? `${rupees}.${fraction}` : rupees }));

/** Paise computed by hand from the digits: the rupee digits followed by the fraction padded to two. */
function byHand(rupees: string, fraction: string): bigint {
  return BigInt(`${rupees}${fraction.padEnd(2, '0')}`);
}

describe('money: properties', () => {
  it('when any paise amount within the cap is formatted and parsed back, then the same amount comes back', () => {
    assertProperty(
      fc.property(fc.bigInt({ min: 0n, max: PAISE_CAP - 1n }), (paise) => {
        const text = formatRupees(paise);
        expect(text).toMatch(/^(0|[1-9][0-9]*)\.[0-9]{2}$/);
        expect(parseRupees(text)).toBe(paise);
      }),
      1000,
      import.meta.url,
    );
  });

  it('when any paise amount at all is formatted and parsed back, then it comes back exactly or is refused, never changed', () => {
    assertProperty(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), (paise) => {
        const parsed = parseRupees(formatRupees(paise));
        expect(parsed === undefined ? paise >= PAISE_CAP : parsed === paise).toBe(true);
      }),
      500,
      import.meta.url,
    );
  });

  it('when a negative amount is formatted, then it is the positive amount with a minus sign, and parsing refuses it', () => {
    assertProperty(
      fc.property(fc.bigInt({ min: 1n, max: PAISE_CAP }), (paise) => {
        expect(formatRupees(-paise)).toBe(`-${formatRupees(paise)}`);
        expect(parseRupees(formatRupees(-paise))).toBeUndefined();
      }),
      300,
      import.meta.url,
    );
  });

  it('when any plain decimal with at most two fraction digits is parsed, then it is exactly the paise computed by hand', () => {
    assertProperty(
      fc.property(plainDecimal, ({ rupees, fraction, text }) => {
        expect(parseRupees(text)).toBe(byHand(rupees, fraction));
      }),
      1000,
      import.meta.url,
    );
  });

  it('when a parsed amount is formatted again, then it is the same decimal written with two fraction digits', () => {
    assertProperty(
      fc.property(plainDecimal, ({ rupees, fraction, text }) => {
        expect(formatRupees(parseRupees(text)!)).toBe(`${rupees}.${fraction.padEnd(2, '0')}`);
      }),
      500,
      import.meta.url,
    );
  });

  it('when a decimal has three or more fraction digits, then it is refused (even if they are zeros)', () => {
    assertProperty(
      fc.property(rupeePart, digitString(3, 12), (rupees, fraction) => {
        expect(parseRupees(`${rupees}.${fraction}`)).toBeUndefined();
      }),
      500,
      import.meta.url,
    );
  });

  it('when a decimal carries a sign, then it is refused', () => {
    assertProperty(
      fc.property(plainDecimal, fc.constantFrom('-', '+', '−', '\u2212'), ({ text }, sign) => {
        expect(parseRupees(sign + text)).toBeUndefined();
      }),
      300,
      import.meta.url,
    );
  });

  it('when a decimal carries an exponent, then it is refused', () => {
    assertProperty(
      fc.property(
        plainDecimal,
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        digitString(1, 3),
        ({ text }, e, sign, exponent) => {
          expect(parseRupees(`${text}${e}${sign}${exponent}`)).toBeUndefined();
        },
      ),
      300,
      import.meta.url,
    );
  });

  it('when any text at all is accepted, then it is a plain decimal and means exactly what its digits say', () => {
    // Text drawn mostly from the characters amounts are made of, so near-misses ("1.", ".5", "01", "1..0",
    // " 1", "1e2", "1,000") are common rather than rare.
    const nearNumber = fc.string({
      unit: fc.constantFrom(...Array.from('0123456789.-+eE ,_\t\u00a0\u0661\u0967')),
      maxLength: 20,
    });
    assertProperty(
      fc.property(fc.oneof(nearNumber, fc.string({ unit: 'grapheme', maxLength: 20 })), (text) => {
        const paise = parseRupees(text);
        if (paise === undefined) return;
        const match = /^(0|[1-9][0-9]{0,14})(?:\.([0-9]{1,2}))?$/.exec(text);
        expect(match, `accepted ${JSON.stringify(text)}`).not.toBeNull();
        expect(paise).toBe(byHand(match![1]!, match![2] ?? ''));
      }),
      2000,
      import.meta.url,
    );
  });

  it('when a decimal has a leading zero, a bare dot or blanks around it, then it is refused', () => {
    assertProperty(
      fc.property(
        plainDecimal,
        fc.constantFrom(
          (t: string) => `0${t}`,
          (t: string) => `${t}.`,
          (t: string) => `.${t.replace('.', '')}`,
          (t: string) => ` ${t}`,
          (t: string) => `${t} `,
          (t: string) => `${t}\n`,
        ),
        ({ text }, spoil) => {
          const spoiled = spoil(text);
          expect(parseRupees(spoiled), JSON.stringify(spoiled)).toBeUndefined();
        },
      ),
      500,
      import.meta.url,
    );
  });
});
