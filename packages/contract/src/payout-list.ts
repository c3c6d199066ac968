import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError, type PayoutMode, type PayoutStatus } from '@payout/domain';
import { payoutStatusBody, payoutStatusSchema, type PayoutStatusBody, type PayoutStatusSource } from './lookups.js';
import { okHead } from './members.js';
import { queryParameter, timeParameter } from './query-parameters.js';
import { fieldErrors, optional, type FieldError } from './requests/request-fields.js';

// GET /api/payouts (docs/api.md, "Listing payouts"): a merchant's payouts newest first, a page at a time. The
// query's schema, the cursor that carries a walk from one page to the next, and the body. Each item is exactly
// the status lookup's body of that payout (CONTRACT.md, "The merchant API beyond the seed").

// ----- the query

/** How many payouts a page holds unless `limit` says otherwise, and at most (CONTRACT.md: 100 and 1,000). */
export const PAYOUT_LIST_DEFAULT_LIMIT = 100;
export const PAYOUT_LIST_MAX_LIMIT = 1000;

const LOOKUP_STATUS: Record<PayoutStatusBody['status'], PayoutStatus> = {
  Pending: 'PENDING',
  Success: 'SUCCESS',
  Failed: 'FAILED',
};

// A sponsor bank's alias as the BANKS setting allows it (docs/banks.md, "Configuration"; packages/config's
// BANK_NAME_PATTERN, which this package cannot import).
const BANK_ALIAS = /^[a-z][a-z0-9-]{0,31}$/;

const TIME_RULE =
  'a date (YYYY-MM-DD, a day from 00:00 India time) or a timestamp with its offset ' +
  '(2026-11-28T10:00:00+05:30, 2026-11-28T04:30:00Z)';

const LIST_EXAMPLES: [string, string] = ['2026-11-01', '2026-11-28T10:00:00+05:30'];

const CURSOR_RULE = "the next_cursor of this list's previous page, unchanged";

/**
 * The query of GET /api/payouts, every parameter optional (absent and "" both mean not given). Parameters not
 * listed here are refused by {@link parsePayoutListQuery}, not ignored: a misspelt filter would otherwise
 * answer every payout.
 */
export const payoutListQuerySchema = z.object({
  from: timeParameter('from', TIME_RULE, `Only payouts accepted at or after this: ${TIME_RULE}.`, LIST_EXAMPLES),
  to: timeParameter(
    'to',
    TIME_RULE,
    `Only payouts accepted before this (not at it): ${TIME_RULE}. Later than from.`,
    LIST_EXAMPLES,
  ),
  status: optional(
    z.enum(['Pending', 'Success', 'Failed'], {
      error: (issue) =>
        Array.isArray(issue.input) ? 'status must be given once' : 'status must be Pending, Success or Failed',
    }),
  ).meta({
    type: 'string',
    enum: ['Pending', 'Success', 'Failed'],
    description: 'Only payouts whose status lookup says this now.',
  }),
  mode: optional(
    z.enum(['IMPS', 'UPI'], {
      error: (issue) => (Array.isArray(issue.input) ? 'mode must be given once' : 'mode must be IMPS or UPI'),
    }),
  ).meta({ type: 'string', enum: ['IMPS', 'UPI'], description: 'Only payouts of this mode.' }),
  BatchID: optional(
    queryParameter('BatchID', '1 to 30 digits').regex(/^[0-9]{1,30}$/, 'BatchID must be 1 to 30 digits'),
  ).meta({
    type: 'string',
    description:
      'Only the payouts of your bulk batch with this BatchID (POST /api/bulkpayout): 1 to 30 digits. A BatchID ' +
      'of no batch of yours lists nothing.',
    examples: ['20240601'],
  }),
  bank: optional(
    queryParameter('bank', "a bank's alias").regex(
      BANK_ALIAS,
      "bank must be a bank's alias: a lowercase letter, then up to 31 lowercase letters, digits or -",
    ),
  ).meta({
    type: 'string',
    description:
      'Only payouts sent to the sponsor bank with this alias, as the status lookup names it in `bank` (a payout ' +
      'not sent yet has none).',
    examples: ['primary'],
  }),
  limit: optional(
    queryParameter('limit', `a whole number from 1 to ${PAYOUT_LIST_MAX_LIMIT}`)
      .regex(/^[1-9][0-9]{0,3}$/, `limit must be a whole number from 1 to ${PAYOUT_LIST_MAX_LIMIT}`)
      .transform(Number)
      .refine((n) => n <= PAYOUT_LIST_MAX_LIMIT, `limit must be a whole number from 1 to ${PAYOUT_LIST_MAX_LIMIT}`),
  ).meta({
    type: 'integer',
    minimum: 1,
    maximum: PAYOUT_LIST_MAX_LIMIT,
    description: `Payouts per page: 1 to ${PAYOUT_LIST_MAX_LIMIT}, ${PAYOUT_LIST_DEFAULT_LIMIT} unless given.`,
  }),
  cursor: optional(
    queryParameter('cursor', CURSOR_RULE).transform((text, ctx) => {
      const cursor = decodeListCursor(text);
      if (!cursor) {
        ctx.addIssue({ code: 'custom', message: `cursor must be ${CURSOR_RULE}` });
        return z.NEVER;
      }
      return cursor;
    }),
  ).meta({
    type: 'string',
    description:
      `The next page: ${CURSOR_RULE}, sent with the same filters (from, to, status, mode, BatchID, bank) as that ` +
      'page; limit may change. Without it, the first page.',
  }),
});

const PARAMETERS = Object.keys(payoutListQuerySchema.shape);

/** What a merchant's list is narrowed to; null where not given. */
export interface PayoutListFilters {
  /** Accepted at or after. */
  from: Date | null;
  /** Accepted before. */
  to: Date | null;
  status: PayoutStatus | null;
  mode: PayoutMode | null;
  /** The merchant's BatchID of a bulk batch. */
  batchId: string | null;
  /** A sponsor bank's alias. */
  bank: string | null;
}

/** Where a page starts: just after (older than) the payout accepted at `createdAt` with this id. */
export interface PayoutListPosition {
  createdAt: Date;
  id: bigint;
}

export interface PayoutListRequest {
  filters: PayoutListFilters;
  limit: number;
  /** Null for the first page. */
  after: PayoutListPosition | null;
}

/**
 * Reads GET /api/payouts's query, or throws the contract's 422 listing every parameter at fault: one not of
 * this list, one given twice, one breaking its rule, `to` not later than `from`, or a cursor that is not a
 * next_cursor of this list as filtered now.
 */
export function parsePayoutListQuery(query: Record<string, unknown>): PayoutListRequest {
  const errors: FieldError[] = Object.keys(query)
    .filter((name) => !PARAMETERS.includes(name))
    .map((name) => {
      const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
      return { field: shown, message: `${shown} is not a parameter of this list (${PARAMETERS.join(', ')})` };
    });
  const known = Object.fromEntries(Object.entries(query).filter(([name]) => PARAMETERS.includes(name)));
  const parsed = payoutListQuerySchema.safeParse(known);
  if (!parsed.success) throw AppError.validation([...errors, ...fieldErrors(parsed.error)]);
  const { from, to, status, mode, BatchID, bank, limit, cursor } = parsed.data;

  const filters: PayoutListFilters = {
    from: from ?? null,
    to: to ?? null,
    status: status ? LOOKUP_STATUS[status] : null,
    mode: mode ?? null,
    batchId: BatchID ?? null,
    bank: bank ?? null,
  };
  if (filters.from && filters.to && filters.to <= filters.from) {
    errors.push({ field: 'to', message: 'to must be later than from' });
  }
  if (cursor && cursor.filters !== filtersFingerprint(filters)) {
    errors.push({
      field: 'cursor',
      message:
        'cursor belongs to the list with other filters: send the same from, to, status, mode, BatchID and bank as ' +
        'the page it came from, or leave cursor out to start again',
    });
  }
  if (errors.length > 0) throw AppError.validation(errors);
  return { filters, limit: limit ?? PAYOUT_LIST_DEFAULT_LIMIT, after: cursor?.position ?? null };
}

// ----- the cursor

// A cursor is base64url of "1:<acceptance time, Unix ms>:<payout id>:<fingerprint of the filters>": where the
// next page starts, and which list it belongs to. It is opaque to merchants but no secret, and needs no
// signature: it only says where to start reading, always within the caller's own payouts, so an edited one can
// show nothing the caller could not list anyway. It is read strictly all the same (its exact form, its
// filters'), so that anything but a next_cursor given out for this list is refused rather than guessed at.

const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,120}$/;
const CURSOR_PAYLOAD = /^1:(0|[1-9][0-9]{0,14}):([1-9][0-9]{0,18}):([0-9a-f]{16})$/;
const MAX_ID = 2n ** 63n - 1n;

interface ListCursor {
  position: PayoutListPosition;
  /** {@link filtersFingerprint} of the list it was given out for. */
  filters: string;
}

/** The next_cursor of a page whose last payout is at `position`, for the list with these filters. */
export function encodeListCursor(position: PayoutListPosition, filters: PayoutListFilters): string {
  const payload = `1:${position.createdAt.getTime()}:${position.id}:${filtersFingerprint(filters)}`;
  return Buffer.from(payload, 'utf8').toString('base64url');
}

/** A cursor's content, or undefined unless it is exactly what {@link encodeListCursor} writes. */
export function decodeListCursor(text: string): ListCursor | undefined {
  if (!CURSOR_TEXT.test(text)) return undefined;
  const payload = Buffer.from(text, 'base64url').toString('latin1');
  const match = CURSOR_PAYLOAD.exec(payload);
  if (!match) return undefined;
  const id = BigInt(match[2]!);
  const createdAt = new Date(Number(match[1]));
  if (id > MAX_ID || Number.isNaN(createdAt.getTime())) return undefined;
  const cursor = { position: { createdAt, id }, filters: match[3]! };
  // One text per cursor: base64url with stray bits or another spelling of the same payload is not ours.
  return Buffer.from(payload, 'latin1').toString('base64url') === text ? cursor : undefined;
}

/** The first 64 bits of SHA-256 over the filters as given: enough to tell one list from another, no more. */
function filtersFingerprint(f: PayoutListFilters): string {
  const canonical = JSON.stringify([
    f.from?.getTime() ?? null,
    f.to?.getTime() ?? null,
    f.status,
    f.mode,
    f.batchId,
    f.bank,
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

// ----- the body

export const payoutListSchema = z
  .object({
    ...okHead(200, 'Success'),
    payouts: z.array(payoutStatusSchema).meta({
      description:
        "This page's payouts, newest first (by acceptance time, then our own order): each exactly the body " +
        'GET /api/check_payout_status answers for it. Empty when none matches.',
    }),
    next_cursor: z
      .string()
      .nullable()
      .meta({
        description:
          'Send it as `cursor`, with the same filters, for the next page; null on the last page. Opaque: keep it ' +
          'as it is.',
        examples: [
          encodeListCursor(
            { createdAt: new Date('2026-11-28T09:15:00.000Z'), id: 12345n },
            { from: null, to: null, status: null, mode: null, batchId: null, bank: null },
          ),
        ],
      }),
  })
  .meta({ id: 'PayoutList', description: 'A page of your payouts, newest first.' });

export type PayoutListBody = z.infer<typeof payoutListSchema>;

/** A payout as a page holds it: what its status lookup is built from, and where it stands in the list. */
export type PayoutListItem = PayoutStatusSource & PayoutListPosition;

/**
 * GET /api/payouts's body: the page's payouts as status lookups, and a next_cursor after the last one when
 * more follow (`more`), else null.
 */
export function payoutListBody(
  page: { payouts: readonly PayoutListItem[]; more: boolean },
  filters: PayoutListFilters,
): PayoutListBody {
  const last = page.payouts.at(-1);
  return {
    error: false,
    status_code: 200,
    status: 'Success',
    payouts: page.payouts.map(payoutStatusBody),
    next_cursor: page.more && last ? encodeListCursor(last, filters) : null,
  };
}
