import { z } from 'zod';
import { formatRupees, isJsonNumber, MINIMUM_PAYOUT_PAISE, parseRupees, type Paise } from '@payout/domain';

// Field schemas for merchant requests. Bodies are parsed losslessly, so a JSON number arrives as a
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
  return z.preprocess(
    numberAsText,
    z
      .string({ error: (issue) => required(field)(issue) ?? `${field} must be ${rule}` })
      .regex(pattern, { error: `${field} must be ${rule}` }),
  );
}

export const transactionIdField = digits('TransactionID', /^[0-9]{1,30}$/, '1 to 30 digits');

/** A rupee amount as a JSON number or numeric string, to paise, within [1.00, ceiling]. */
export function amountField(ceiling: Paise) {
  return z.preprocess(
    numberAsText,
    z
      .string({ error: (issue) => required('Amount')(issue) ?? 'Amount must be a number' })
      .transform((text, ctx): Paise => {
        const paise = parseRupees(text);
        if (paise === undefined) {
          ctx.addIssue({ code: 'custom', message: 'Amount must be a plain decimal with at most two fraction digits' });
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
  );
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
  return z.preprocess(blankAsAbsent, schema.optional());
}

export const ifscField = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
  z
    .string({ error: (issue) => required('Ifsc')(issue) ?? 'Ifsc must be a string' })
    .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, { error: 'Ifsc must be 4 letters, a zero, then 6 letters or digits' }),
);

export const accountNumberField = digits('Account', /^[0-9]{9,18}$/, '9 to 18 digits');

export const upiField = z
  .string({ error: (issue) => required('Upi')(issue) ?? 'Upi must be a string' })
  .trim()
  .regex(/^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/, { error: 'Upi must be a UPI address such as name@bank' });

export const mobileField = digits('Mobile', /^[6-9][0-9]{9}$/, '10 digits starting with 6 to 9');

export const emailField = z
  .string({ error: 'Email must be a string' })
  .trim()
  .max(254, { error: 'Email must be at most 254 characters' })
  .pipe(z.email({ error: 'Email must be an e-mail address' }));

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
