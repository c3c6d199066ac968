import { z } from 'zod';
import { optional } from './requests/request-fields.js';
import { DATE_FORM, parseIstDate, parseTimestamp, TIMESTAMP_FORM } from './times.js';

// The query parameters the merchant's list reads share (GET /api/payouts, /api/statement, /api/events): one
// parameter's text, refused when repeated, and a time given as an India date or a timestamp with its offset
// (CONTRACT.md, "The merchant API beyond the seed": filters accept IST dates or full timestamps).

// A `+` left unencoded in a URL arrives as a space: "…T10:00:00 05:30" can only have meant +05:30.
const OFFSET_AS_SPACE = / (\d{2}:\d{2})$/;

/** The moment a `from` or `to` names, or undefined when it is neither form. */
export function parseListTime(text: string): Date | undefined {
  return parseIstDate(text) ?? parseTimestamp(text.replace(OFFSET_AS_SPACE, '+$1'));
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
