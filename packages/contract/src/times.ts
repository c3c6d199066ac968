import { IST_OFFSET_MS } from '@payout/domain';

// Times on the wire (CONTRACT.md, "The merchant API beyond the seed": ISO 8601 with offset in bodies; filters
// accept IST dates or full timestamps). One reader of each form, for every member and parameter that takes one.

/** The text forms, for the OpenAPI document's patterns. */
export const DATE_FORM = String.raw`(\d{4})-(\d{2})-(\d{2})`;
export const TIMESTAMP_FORM = String.raw`(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})`;
const DATE = new RegExp(`^${DATE_FORM}$`);
const TIMESTAMP = new RegExp(`^${TIMESTAMP_FORM}$`);

/**
 * The moment an ISO 8601 timestamp with an explicit offset (Z or ±hh:mm) names, or undefined when the text is
 * not one or names no real time ("2026-02-30", "24:00"): which clock a time is read in is always the sender's
 * to say. Seconds and up to nine fraction digits are optional; times are kept to the millisecond, so a finer
 * fraction is the next millisecond up (never earlier than the time given).
 */
export function parseTimestamp(text: string): Date | undefined {
  const stamp = TIMESTAMP.exec(text);
  if (!stamp) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone] = stamp;
  const offset = zone === 'Z' ? 0 : offsetMinutes(zone!);
  if (offset === undefined) return undefined;
  return moment(year!, month!, day!, hour!, minute!, second, fraction, offset);
}

/** 00:00 India time of a date written YYYY-MM-DD, or undefined when it is not a real date. */
export function parseIstDate(text: string): Date | undefined {
  const date = DATE.exec(text);
  return date ? moment(date[1]!, date[2]!, date[3]!, '00', '00', '00', '', IST_OFFSET_MS / 60_000) : undefined;
}

function offsetMinutes(zone: string): number | undefined {
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

function moment(
  year: string,
  month: string,
  day: string,
  hour: string,
  minute: string,
  second: string,
  fraction: string,
  offset: number,
): Date | undefined {
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return undefined;
  // Acceptance times are kept to the millisecond, so a finer bound is the next millisecond up: "at or after
  // 10:00:00.0001" and "at or after 10:00:00.001" select the same payouts, and so do the two as `to`.
  const fractionMs = Math.ceil(Number(fraction.padEnd(9, '0')) / 1e6);
  at.setUTCHours(h, mi - offset, s, fractionMs);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
