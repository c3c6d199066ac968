const RUPEES = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,2}))?$/;

/**
 * Whole paise as the rupee text the API takes and answers with: 10150n → "101.50". For merchants who keep
 * money as integer paise (the only safe way to keep it): `Amount: rupeesFromPaise(10150n)`.
 */
export function rupeesFromPaise(paise: bigint): string {
  if (paise < 0n) throw new RangeError('an amount is never negative');
  const fraction = (paise % 100n).toString().padStart(2, '0');
  return `${paise / 100n}.${fraction}`;
}

/** Rupee text ("101.5", "101.50", "4765.00") as whole paise (10150n); undefined for anything else. */
export function paiseFromRupees(rupees: string): bigint | undefined {
  const match = RUPEES.exec(rupees);
  if (!match) return undefined;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}
