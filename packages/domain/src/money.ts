/**
 * Money is INR held as whole paise in a bigint: never a float, in storage or in memory.
 */
export type Paise = bigint;

// Plain decimal: no sign, no exponent, no leading zeros, at most two fraction digits. The integer part is
// capped far above any real amount so a hostile 10,000-digit number is refused before arithmetic.
const AMOUNT_PATTERN = /^(0|[1-9][0-9]{0,14})(?:\.([0-9]{1,2}))?$/;

/**
 * Parses a rupee amount written in decimal ("101", "101.5", "101.50") to paise, exactly.
 * Returns undefined for anything else: three fraction digits, a sign, an exponent, NaN, blanks.
 */
export function parseRupees(text: string): Paise | undefined {
  const match = AMOUNT_PATTERN.exec(text);
  if (!match) return undefined;
  const [, rupees = '0', fraction = ''] = match;
  return BigInt(rupees) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Writes paise as rupees with exactly two fraction digits: 10150n → "101.50", -5n → "-0.05". */
export function formatRupees(paise: Paise): string {
  const sign = paise < 0n ? '-' : '';
  const magnitude = paise < 0n ? -paise : paise;
  const fraction = (magnitude % 100n).toString().padStart(2, '0');
  return `${sign}${magnitude / 100n}.${fraction}`;
}

/** Paise from whole rupees, for constants: rupees(500000) → 50000000n. */
export function rupees(whole: number): Paise {
  if (!Number.isSafeInteger(whole)) throw new RangeError(`not a whole number of rupees: ${whole}`);
  return BigInt(whole) * 100n;
}
