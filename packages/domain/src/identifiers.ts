import { randomFillSync } from 'node:crypto';

/** A merchant's transaction identifier: 1–30 digits, kept as text so no digit is ever lost. */
const TRANSACTION_ID_PATTERN = /^[0-9]{1,30}$/;
/** A merchant identifier (the `MID` header). */
const MID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
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

// Digits of `value` (a non-negative integer below 2^53) in base 32, most significant first, `length` of them.
function base32(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE32[value % 32]! + out;
    value = Math.floor(value / 32);
  }
  return out;
}

// Random bytes are drawn from the kernel 4 KiB at a time and handed out 8 at a time: one randomFillSync per
// 512 Ack_nos instead of one per payout (it was 1.5 % of the API's CPU on the accept path,
// docs/performance.md "The hot path's statements over pg"). The bytes are the same CSPRNG's, and none is
// ever handed out twice.
const RANDOM_POOL = Buffer.alloc(4_096);
let randomOffset = RANDOM_POOL.length;

/** 50 fresh random bits, as two 25-bit numbers. */
function random50Bits(): [number, number] {
  if (randomOffset === RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    randomOffset = 0;
  }
  const high = RANDOM_POOL.readUInt32BE(randomOffset) >>> 7;
  const low = RANDOM_POOL.readUInt32BE(randomOffset + 4) >>> 7;
  randomOffset += 8;
  return [high, low];
}

/**
 * A new Ack_no: 20 characters, the first 10 the time in milliseconds (so references sort by age and
 * support can date one at a glance), the last 10 fifty random bits (so two payouts in one millisecond
 * never share one; the database's unique index is the final word).
 */
export function newAckNo(now: number = Date.now()): string {
  const [high, low] = random50Bits();
  return base32(now, 10) + base32(high, 5) + base32(low, 5);
}
