import { z } from 'zod';
import { optional } from './requests/request-fields.js';

// The query parameters the merchant's list reads share (GET /api/payouts, /api/statement, /api/events): one
// parameter's text, refused when repeated, and a time given as an India date or a timestamp with its offset
// (CONTRACT.md, "The merchant API beyond the seed": filters accept IST dates or full timestamps).

/** India keeps one offset all year (no daylight saving): a date filter is a day from 00:00 IST. */
const IST_OFFSET_MINUTES = 5 * 60 + 30;

const DATE_FORM = String.raw`(\d{4})-(\d{2})-(\d{2})`;
const TIMESTAMP_FORM = String.raw`(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})`;
const DATE = new RegExp(`^${DATE_FORM}$`);
const TIMESTAMP = new RegExp(`^${TIMESTAMP_FORM}$`);
// A `+` left unencoded in a URL arrives as a space: "…T10:00:00 05:30" can only have meant +05:30.
const OFFSET_AS_SPACE = / (\d{2}:\d{2})$/;

/** The moment a `from` or `to` names, or undefined when it is neither form. */
export function parseListTime(text: string): Date | undefined {
  const date = DATE.exec(text);
  if (date) return moment(date[1]!, date[2]!, date[3]!, '00', '00', '00', '', IST_OFFSET_MINUTES);
  const stamp = TIMESTAMP.exec(text.replace(OFFSET_AS_SPACE, '+$1'));
  if (!stamp) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone] = stamp;
  const offset = zone === 'Z' ? 0 : offsetMinutes(zone!);
  if (offset === undefined) return undefined;
  return moment(year!, month!, day!, hour!, minute!, second, fraction, offset);
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

/** One query parameter's text; a repeated parameter arrives as a list and is refused. */
export function queryParameter(name: string, rule: string) {
  return z.string({
    error: (issue) => (Array.isArray(issue.input) ? `${name} must be given once` : `${name} must be ${rule}`),
  });
}

/** An optional `from` or `to`: the moment it names ({@link parseListTime}), or refused saying `rule`. */
export function timeParameter(name: 'from' | 'to', rule: string, description: string, examples: [string, string]) {
  return optional(
    queryParameter(name, rule).transform((text, ctx) => {
      const at = parseListTime(text);
      if (at === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} must be ${rule}` });
        return z.NEVER;
      }
      return at;
    }),
  ).meta({
    // OpenAPI: both forms are checked in the transform, so the document spells them out.
    type: 'string',
    pattern: `^(?:${DATE_FORM}|${TIMESTAMP_FORM})$`,
    description,
    examples,
  });
}
