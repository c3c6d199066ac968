import { randomBytes } from 'node:crypto';

/** A merchant's transaction identifier: 1–30 digits, kept as text so no digit is ever lost. */
export const TRANSACTION_ID_PATTERN = /^[0-9]{1,30}$/;
/** A merchant identifier (the `MID` header). */
export const MID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Our acknowledgement number: 12–20 upper-case letters and digits. */
export const ACK_NO_PATTERN = /^[A-Z0-9]{12,20}$/;

export function isTransactionId(text: string): boolean {
  return TRANSACTION_ID_PATTERN.test(text);
}

export function isMid(text: string): boolean {
  return MID_PATTERN.test(text);
}

// Crockford's base32: upper-case letters and digits without I, L, O and U, so a reference read out over
// the phone to support cannot be misheard.
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function base32(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE32[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return out;
}

/**
 * A new Ack_no: 20 characters, the first 10 the time in milliseconds (so references sort by age and
 * support can date one at a glance), the last 10 fifty random bits (so two payouts in one millisecond
 * never share one; the database's unique index is the final word).
 */
export function newAckNo(now: number = Date.now()): string {
  const random = randomBytes(8).readBigUInt64BE(0) >> 14n; // 64 bits → 50
  return base32(BigInt(now), 10) + base32(random, 10);
}
