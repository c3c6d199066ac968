import { z } from 'zod';
import {
  ACK_NO_PATTERN,
  FAILURE_REASON_TEXT,
  HELD_MESSAGE,
  payoutMessage,
  QUEUED_MESSAGE,
  SCHEDULED_MESSAGE_PATTERN,
  scheduledMessage,
  type FailureReason,
  type JsonNumber,
} from '@payout/domain';

// Members shared by several wire bodies, each with the description the OpenAPI document shows
// (docs/api.md says what each means).

/**
 * A body as the builders write it: where the schema says "JSON number", the builder holds a JsonNumber
 * (written as its exact literal by stringifyJson). Literal numbers such as `status_code: 202` stay as they are.
 */
export type OnTheWire<T> = T extends number
  ? number extends T
    ? JsonNumber
    : T
  : T extends readonly (infer E)[]
    ? OnTheWire<E>[]
    : T extends object
      ? { [K in keyof T]: OnTheWire<T[K]> }
      : T;

const PENDING_MESSAGES = [payoutMessage('PENDING'), QUEUED_MESSAGE, HELD_MESSAGE] as [string, string, string];
export const SUCCESS_MESSAGE = payoutMessage('SUCCESS');
const FAILED_MESSAGES = (Object.keys(FAILURE_REASON_TEXT) as FailureReason[]).map((reason) =>
  payoutMessage('FAILED', reason),
) as [string, ...string[]];

const RUPEES_TEXT = /^(0|[1-9][0-9]*)\.[0-9]{2}$/;
export const DIGITS_1_TO_30 = /^[0-9]{1,30}$/;

export const ackNo = z
  .string()
  .regex(ACK_NO_PATTERN)
  .meta({
    description: 'Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.',
    examples: ['06F3K9Q2ZC4M7XR1B8TD'],
  });

/** Rupees as text with two fraction digits; `description` overrides the plain one. */
export const rupeesText = (description = 'Rupees, always with two fraction digits.', examples = ['101.00']) =>
  z.string().regex(RUPEES_TEXT).meta({ description, examples });

export const amountText = rupeesText();

export const amountNumber = z.number().meta({
  description: 'Rupees as a JSON number literal written with two fraction digits, e.g. 101.00 (exact, never rounded).',
  examples: [101.0],
});

export const transactionIdText = z
  .string()
  .regex(DIGITS_1_TO_30)
  .meta({ description: 'The TransactionID you sent, digit for digit.', examples: ['20240601000123'] });

export const transactionIdNumber = z
  .union([
    z.number().meta({
      type: 'integer',
      minimum: 0,
      description: 'The TransactionID you sent, as a JSON number with exactly its digits.',
    }),
    z
      .string()
      .regex(/^0[0-9]{1,29}$/)
      .meta({ description: 'A TransactionID with leading zeros (sent as a string): JSON has no such number literal.' }),
  ])
  .meta({
    description:
      'The TransactionID you sent, as a JSON number with exactly its digits (23 digits stay 23 digits: parse it ' +
      'losslessly); one with leading zeros, which only a string can carry, comes back as that string.',
    examples: [20240601000123],
  });

export const failedMessage = z.enum(FAILED_MESSAGES).meta({
  description: 'MP007 followed by the reason, one of a fixed list.',
  examples: [payoutMessage('FAILED', 'INSUFFICIENT_BALANCE')],
});

/** The one pending message with a time in it: "MP006 - Your transaction is scheduled for <IST time>". */
const scheduledPendingMessage = z
  .string()
  .regex(SCHEDULED_MESSAGE_PATTERN)
  .meta({
    description: 'MP006 for a payout waiting for its ScheduledAt, with that time in IST to the minute.',
    examples: [scheduledMessage(new Date('2026-12-24T04:30:00Z'))],
  });

export const pendingMessage = z.union([z.enum(PENDING_MESSAGES), scheduledPendingMessage]).meta({
  description:
    'MP006: in progress, queued until the main wallet holds enough (for a merchant who opted in), held while ' +
    'no bank serves its mode (sent when one recovers), or scheduled for the time the merchant chose.',
});

export const payoutMessageMember = z
  .union([z.enum([...PENDING_MESSAGES, SUCCESS_MESSAGE, ...FAILED_MESSAGES]), scheduledPendingMessage])
  .meta({
    description: 'The result code and its text, as in the payout result.',
  });

/** `error`, `status_code` and `status` of a success body: every answer starts with them (docs/api.md). */
export const okHead = <C extends number, S extends string>(statusCode: C, status: S) => ({
  error: z.literal(false),
  status_code: z.literal(statusCode),
  status: z.literal(status),
});
