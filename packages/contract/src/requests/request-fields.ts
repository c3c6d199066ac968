import { z } from 'zod';
import { formatRupees, isJsonNumber, MINIMUM_PAYOUT_PAISE, parseRupees, type Paise } from '@payout/domain';
import { parseTimestamp, TIMESTAMP_FORM } from '../times.js';

// Field schemas for merchant requests (docs/api.md, "Request members"): the request side of the wire
// contract, shared by every endpoint's schema. Bodies are parsed losslessly, so a JSON number arrives as a
// JsonNumber holding its exact text; identifier and amount fields accept it or a string and work on the
// text, so 12345678901234567890123 keeps every digit and 0.1 never becomes 0.1000000000000000055.

/** A JsonNumber becomes its literal text; anything else passes through for the schema to judge. */
const numberAsText = (value: unknown): unknown => (isJsonNumber(value) ? value.toString() : value);

/** Absent, null and "" all mean "not given" for optional members, as merchants' clients send all three. */
const blankAsAbsent = (value: unknown): unknown => (value === null || value === '' ? undefined : value);

function required(field: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : undefined);
}

/** Digits, given as a JSON number or a string: TransactionID, Account, Mobile. */
export function digits(field: string, pattern: RegExp, rule: string) {
  return z
    .preprocess(
      numberAsText,
      z
        .string({ error: (issue) => required(field)(issue) ?? `${field} must be ${rule}` })
        .regex(pattern, { error: `${field} must be ${rule}` }),
    )
    .meta({
      // OpenAPI: the generator sees only the string after preprocessing, so the JSON number is spelled out.
      type: ['string', 'integer'],
      pattern: pattern.source,
      description: `${rule}, as a JSON number or a string (a number written with digits only: no sign, fraction or exponent)`,
    });
}

// OpenAPI: `pattern` binds strings only, so each digits field also gives the same rule's range for a number.
export const transactionIdField = digits('TransactionID', /^[0-9]{1,30}$/, '1 to 30 digits').meta({
  minimum: 0,
  exclusiveMaximum: 1e30,
});

/** A rupee amount as a JSON number or numeric string, to paise, within [1.00, ceiling]. */
export function amountField(ceiling: Paise) {
  return z
    .preprocess(
      numberAsText,
      z
        .string({ error: (issue) => required('Amount')(issue) ?? 'Amount must be a number' })
        .transform((text, ctx): Paise => {
          const paise = parseRupees(text);
          if (paise === undefined) {
            ctx.addIssue({
              code: 'custom',
              message: 'Amount must be a plain decimal with at most two fraction digits',
            });
            return z.NEVER;
          }
          if (paise < MINIMUM_PAYOUT_PAISE) {
            ctx.addIssue({ code: 'custom', message: `Amount must be at least ${formatRupees(MINIMUM_PAYOUT_PAISE)}` });
            return z.NEVER;
          }
          if (paise > ceiling) {
            ctx.addIssue({ code: 'custom', message: `Amount must be at most ${formatRupees(ceiling)}` });
            return z.NEVER;
          }
          return paise;
        }),
    )
    .meta({
      // OpenAPI: the checks above live in a transform the generator cannot read, so they are spelled out.
      // `pattern` (strings only) is the plain decimal parseRupees accepts; minimum and maximum bind numbers.
      type: ['string', 'number'],
      pattern: '^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,2})?$',
      minimum: Number(formatRupees(MINIMUM_PAYOUT_PAISE)),
      maximum: Number(formatRupees(ceiling)),
      description:
        `Rupees, as a JSON number or a numeric string: a plain decimal (no sign, exponent or leading zeros) with ` +
        `at most two fraction digits, from ${formatRupees(MINIMUM_PAYOUT_PAISE)} to ${formatRupees(ceiling)} ` +
        `or the merchant's own lower limit. Read from its text, never as a float: 101.5 and "101.50" are the same amount.`,
      examples: ['101.00', 101.5],
    });
}

// Control characters (NUL above all, which PostgreSQL cannot store) have no place in a name or a note;
// line breaks are allowed in free text only.
/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/* eslint-enable no-control-regex */

/**
 * Free text of bounded length (`min` 1: not blank), well-formed Unicode (a lone surrogate cannot be
 * stored) and without control characters.
 */
export function text(field: string, min: number, max: number, { multiline = false } = {}) {
  const rule = min > 0 ? `${min} to ${max} characters` : `at most ${max} characters`;
  const control = multiline ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL;
  return z
    .string({ error: (issue) => required(field)(issue) ?? `${field} must be a string` })
    .trim()
    .min(min, { error: `${field} must be ${rule}` })
    .max(max, { error: `${field} must be ${rule}` })
    .refine((value) => value.isWellFormed() && !control.test(value), {
      error: `${field} must be printable text without control characters`,
    });
}

export function optional<T extends z.ZodType>(schema: T) {
  const member = z.preprocess(blankAsAbsent, schema.optional());
  // OpenAPI: the generator adds "null" by itself, except to a member whose type its metadata spells out.
  const spelledOut = schema.meta()?.type;
  return Array.isArray(spelledOut) ? member.meta({ type: [...(spelledOut as unknown[]), 'null'] }) : member;
}

export const ifscField = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
  z
    .string({ error: (issue) => required('Ifsc')(issue) ?? 'Ifsc must be a string' })
    .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, { error: 'Ifsc must be 4 letters, a zero, then 6 letters or digits' }),
);

export const accountNumberField = digits('Account', /^[0-9]{9,18}$/, '9 to 18 digits').meta({
  minimum: 1e8,
  exclusiveMaximum: 1e18,
});

export const upiField = z
  .string({ error: (issue) => required('Upi')(issue) ?? 'Upi must be a string' })
  .trim()
  .regex(/^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/, { error: 'Upi must be a UPI address such as name@bank' });

export const mobileField = digits('Mobile', /^[6-9][0-9]{9}$/, '10 digits starting with 6 to 9').meta({
  minimum: 6e9,
  exclusiveMaximum: 1e10,
});

export const emailField = z
  .string({ error: 'Email must be a string' })
  .trim()
  .max(254, { error: 'Email must be at most 254 characters' })
  .pipe(z.email({ error: 'Email must be an e-mail address' }));

/**
 * An ISO 8601 time with an explicit offset (Z or ±hh:mm), to a Date: the merchant says which clock it means, so
 * no time is read in a zone it did not name (parseTimestamp, ../times.ts).
 */
export function timeWithOffsetField(field: string) {
  const rule = `${field} must be an ISO 8601 time with an offset, such as 2026-12-24T10:00:00+05:30`;
  return z
    .string({ error: rule })
    .transform((value, ctx): Date => {
      const at = parseTimestamp(value);
      if (at) return at;
      ctx.addIssue({ code: 'custom', message: rule });
      return z.NEVER;
    })
    .meta({
      // OpenAPI: the check lives in a transform the generator cannot read, so the text's form is spelled out.
      format: 'date-time',
      pattern: `^${TIMESTAMP_FORM}$`,
    });
}

export interface FieldError {
  field: string;
  message: string;
}

/** Zod's issues as the contract's `errors` list: one entry per failing member, in the order found. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const seen = new Map<string, string>();
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'body';
    if (!seen.has(field)) seen.set(field, issue.message);
  }
  return [...seen].map(([field, message]) => ({ field, message }));
}
