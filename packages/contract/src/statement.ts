import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError, formatRupees, IST_OFFSET_MS, walletDelta, type LedgerEntryKind, type Paise } from '@payout/domain';
import { okHead } from './members.js';
import { queryParameter, timeParameter } from './query-parameters.js';
import { fieldErrors, optional, type FieldError } from './requests/request-fields.js';

// GET /api/statement (docs/api.md, "Statement"): the merchant's main wallet account statement — every movement
// of the available balance in a period, oldest first, with the balance after each, between the opening and the
// closing balance. The query's schema, the cursor that carries a walk from one page to the next, the JSON body
// and the rows of the CSV file. The balance is the one GET /api/checkMainWallet shows: the ledger's MAIN_WALLET
// account (packages/domain/src/ledger.ts), so a statement and the wallet lookup can never disagree.

// ----- what each entry is, in the merchant's words

/** An entry's `type`: a movement of the main wallet, named as the merchant knows it. */
export type StatementEntryType =
  'PAYOUT' | 'PAYOUT_FAILED' | 'PAYOUT_REVERSED' | 'PAYOUT_CHARGED' | 'WALLET_CREDIT' | 'PAYIN';

interface StatementWords {
  type: StatementEntryType;
  description: string;
}

/**
 * Every kind of ledger entry, and what the statement calls it; null for a kind that never moves the main wallet
 * (a settlement moves a payout's reservation out to the beneficiary: the amount already left the available
 * balance when the payout was accepted). Keyed by every kind, so a kind added to the ledger does not compile
 * until it is named here, and statement.test.ts holds the nulls to the ledger's rules.
 */
export const STATEMENT_WORDS: Record<LedgerEntryKind, StatementWords | null> = {
  PAYOUT_RESERVE: { type: 'PAYOUT', description: 'Payout accepted: its amount taken from the main wallet' },
  PAYOUT_SETTLE: null,
  PAYOUT_RELEASE: { type: 'PAYOUT_FAILED', description: 'Payout failed: its amount back in the main wallet' },
  PAYOUT_REVERSAL: {
    type: 'PAYOUT_REVERSED',
    description: 'Paid payout returned by the beneficiary bank: its amount back in the main wallet',
  },
  PAYOUT_LATE_DEBIT: {
    type: 'PAYOUT_CHARGED',
    description: 'Payout the bank paid after it had failed here: its amount charged after all',
  },
  WALLET_CREDIT: { type: 'WALLET_CREDIT', description: 'Main wallet funded' },
  COLLECTION_CREDIT: { type: 'PAYIN', description: 'Pay-in received' },
};

/** Whether entries of `kind` move the main wallet's available balance: the ledger's own rule. */
export function movesMainWallet(kind: LedgerEntryKind): boolean {
  return walletDelta(kind, 1n).available !== 0n;
}

const ENTRY_TYPES = [...new Set(Object.values(STATEMENT_WORDS).flatMap((words) => (words ? [words.type] : [])))] as [
  StatementEntryType,
  ...StatementEntryType[],
];

// ----- times

const DAY_MS = 24 * 60 * 60 * 1000;

/** A moment in India time with its offset, to the millisecond: "2026-12-01T10:15:30.123+05:30". */
export function istTimestamp(at: Date): string {
  return `${new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 23)}+05:30`;
}

/** 00:00 India time of the day `at` falls on. */
function istDayStart(at: Date): Date {
  const local = at.getTime() + IST_OFFSET_MS;
  return new Date(local - (local % DAY_MS) - IST_OFFSET_MS);
}

// ----- the query

/** Entries a page holds unless `limit` says otherwise, and at most (CONTRACT.md: 100 and 1,000). */
export const STATEMENT_DEFAULT_LIMIT = 100;
export const STATEMENT_MAX_LIMIT = 1000;
/** The longest period one statement covers: a quarter, with a day to spare at each end. */
export const STATEMENT_MAX_DAYS = 93;

const TIME_RULE =
  'a date (YYYY-MM-DD, a day from 00:00 India time) or a timestamp with its offset ' +
  '(2026-12-01T00:00:00+05:30, 2026-11-30T18:30:00Z)';
const CURSOR_RULE = 'the next_cursor of a page of this statement, unchanged';
const STATEMENT_EXAMPLES: [string, string] = ['2026-12-01', '2026-12-01T00:00:00+05:30'];

/**
 * The query of GET /api/statement, every parameter optional (absent and "" both mean not given). Parameters
 * not listed here are refused by {@link parseStatementQuery}, not ignored.
 */
export const statementQuerySchema = z.object({
  from: timeParameter(
    'from',
    TIME_RULE,
    `The period's start, included: ${TIME_RULE}. 00:00 India time today unless given; required with to.`,
    STATEMENT_EXAMPLES,
  ),
  to: timeParameter(
    'to',
    TIME_RULE,
    `The period's end, not included: ${TIME_RULE}. Later than from, at most ${STATEMENT_MAX_DAYS} days after it. ` +
      'Unless given, the statement runs up to the moment each page is read.',
    STATEMENT_EXAMPLES,
  ),
  limit: optional(
    queryParameter('limit', `a whole number from 1 to ${STATEMENT_MAX_LIMIT}`)
      .regex(/^[1-9][0-9]{0,3}$/, `limit must be a whole number from 1 to ${STATEMENT_MAX_LIMIT}`)
      .transform(Number)
      .refine((n) => n <= STATEMENT_MAX_LIMIT, `limit must be a whole number from 1 to ${STATEMENT_MAX_LIMIT}`),
  ).meta({
    type: 'integer',
    minimum: 1,
    maximum: STATEMENT_MAX_LIMIT,
    description: `Entries per page: 1 to ${STATEMENT_MAX_LIMIT}, ${STATEMENT_DEFAULT_LIMIT} unless given. JSON only.`,
  }),
  cursor: optional(
    queryParameter('cursor', CURSOR_RULE).transform((text, ctx) => {
      const cursor = decodeStatementCursor(text);
      if (!cursor) {
        ctx.addIssue({ code: 'custom', message: `cursor must be ${CURSOR_RULE}` });
        return z.NEVER;
      }
      return cursor;
    }),
  ).meta({
    type: 'string',
    description:
      `The next page: ${CURSOR_RULE}, sent with the same from and to as that page, or with neither (the cursor ` +
      'carries its period); limit may change. Without it, the first page. JSON only.',
  }),
  format: optional(
    z.enum(['json', 'csv'], {
      error: (issue) => (Array.isArray(issue.input) ? 'format must be given once' : 'format must be json or csv'),
    }),
  ).meta({
    type: 'string',
    enum: ['json', 'csv'],
    description:
      'json (unless given): a page of entries. csv: the whole period as one file (text/csv, an attachment), its ' +
      'opening and closing balances included; without limit and cursor.',
  }),
});

const PARAMETERS = Object.keys(statementQuerySchema.shape);

/** A statement's period: from (included) to (not included); `to` null runs up to the moment it is read. */
export interface StatementPeriod {
  from: Date;
  to: Date | null;
}

/** Where a page starts: just after the entry posted at `createdAt` with this id. */
export interface StatementPosition {
  createdAt: Date;
  id: bigint;
}

export interface StatementRequest {
  period: StatementPeriod;
  format: 'json' | 'csv';
  limit: number;
  /** Null for the first page. */
  after: StatementPosition | null;
}

/**
 * Reads GET /api/statement's query, or throws the contract's 422 listing every parameter at fault: one not of
 * this statement, one given twice or breaking its rule, `to` without `from`, a period that is empty or longer
 * than {@link STATEMENT_MAX_DAYS} days, limit or cursor with the CSV, or a cursor that is not a next_cursor of
 * this statement. `now` is when the request arrived: the default period is today so far.
 */
export function parseStatementQuery(query: Record<string, unknown>, now: Date): StatementRequest {
  const errors: FieldError[] = Object.keys(query)
    .filter((name) => !PARAMETERS.includes(name))
    .map((name) => {
      const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
      return { field: shown, message: `${shown} is not a parameter of the statement (${PARAMETERS.join(', ')})` };
    });
  const known = Object.fromEntries(Object.entries(query).filter(([name]) => PARAMETERS.includes(name)));
  const parsed = statementQuerySchema.safeParse(known);
  if (!parsed.success) throw AppError.validation([...errors, ...fieldErrors(parsed.error)]);
  const { from, to, limit, cursor, format = 'json' } = parsed.data;

  if (format === 'csv') {
    if (limit !== undefined)
      errors.push({ field: 'limit', message: 'limit pages the JSON statement: the CSV is whole' });
    if (cursor) errors.push({ field: 'cursor', message: 'cursor pages the JSON statement: the CSV is whole' });
  }
  let period: StatementPeriod;
  if (cursor) {
    // The cursor carries its period: what the query names must be that period, what it leaves out is taken.
    period = cursor.period;
    const sameFrom = from === undefined || from.getTime() === period.from.getTime();
    const sameTo = to === undefined || to.getTime() === period.to?.getTime();
    if (!sameFrom || !sameTo) {
      errors.push({
        field: 'cursor',
        message:
          'cursor belongs to the statement of another period: send it with the from and to of the page it came ' +
          'from, or with neither, or leave cursor out to start again',
      });
    }
  } else {
    period = { from: from ?? istDayStart(now), to: to ?? null };
    if (to !== undefined && from === undefined) errors.push({ field: 'from', message: 'from is required with to' });
    else if (period.to && period.to <= period.from) errors.push({ field: 'to', message: 'to must be later than from' });
    else if ((period.to ?? now).getTime() - period.from.getTime() > STATEMENT_MAX_DAYS * DAY_MS) {
      errors.push({
        field: period.to ? 'to' : 'from',
        message: `the period must span at most ${STATEMENT_MAX_DAYS} days (from to to, or from to now without to)`,
      });
    }
  }
  if (errors.length > 0) throw AppError.validation(errors);
  return { period, format, limit: limit ?? STATEMENT_DEFAULT_LIMIT, after: cursor?.position ?? null };
}

// ----- the cursor

// A cursor is base64url of "s1:<from>:<to or nothing>:<entry time>:<entry id>:<check>", times in Unix ms: the
// period it walks and the last entry shown, where the next page starts. It carries nothing secret — no balance,
// only a place in the merchant's own entries — so it needs no signature; <check> (the first 48 bits of SHA-256
// over the rest) and the strict reading below refuse anything but a cursor given out, unchanged, rather than
// guess at it.

const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,160}$/;
const CURSOR_PAYLOAD =
  /^(s1:(0|[1-9][0-9]{0,14}):((?:0|[1-9][0-9]{0,14})?):(0|[1-9][0-9]{0,14}):([1-9][0-9]{0,18})):([0-9a-f]{12})$/;
const MAX_ID = 2n ** 63n - 1n;

interface StatementCursor {
  period: StatementPeriod;
  position: StatementPosition;
}

/** The next_cursor of a page of the statement of `period` whose last entry is at `position`. */
export function encodeStatementCursor(period: StatementPeriod, position: StatementPosition): string {
  const body = `s1:${period.from.getTime()}:${period.to?.getTime() ?? ''}:${position.createdAt.getTime()}:${position.id}`;
  return Buffer.from(`${body}:${check(body)}`, 'latin1').toString('base64url');
}

/** A cursor's content, or undefined unless it is exactly what {@link encodeStatementCursor} writes. */
export function decodeStatementCursor(text: string): StatementCursor | undefined {
  if (!CURSOR_TEXT.test(text)) return undefined;
  const payload = Buffer.from(text, 'base64url').toString('latin1');
  // One text per cursor: base64url with stray bits or another spelling of the same payload is not ours.
  if (Buffer.from(payload, 'latin1').toString('base64url') !== text) return undefined;
  const match = CURSOR_PAYLOAD.exec(payload);
  if (!match || check(match[1]!) !== match[6]) return undefined;
  const from = new Date(Number(match[2]));
  const to = match[3] ? new Date(Number(match[3])) : null;
  const createdAt = new Date(Number(match[4]));
  const id = BigInt(match[5]!);
  if ([from, to ?? from, createdAt].some((at) => Number.isNaN(at.getTime())) || id > MAX_ID) return undefined;
  // The last entry shown lies in the period it was shown for.
  if (createdAt < from || (to && (to <= from || createdAt >= to))) return undefined;
  return { period: { from, to }, position: { createdAt, id } };
}

function check(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 12);
}

// ----- an entry

/** A main-wallet ledger entry as the statement shows it. */
export interface StatementEntrySource {
  id: bigint;
  kind: LedgerEntryKind;
  /** Signed: what the entry did to the available balance. */
  amountPaise: Paise;
  createdAt: Date;
  /** The payout's or pay-in's TransactionID; null for a wallet credit. */
  transactionId: string | null;
  /** The operator's reference of a wallet credit; null otherwise. */
  reference: string | null;
}

const signedRupees = (description: string, examples: string[]) =>
  z
    .string()
    .regex(/^-?(0|[1-9][0-9]*)\.[0-9]{2}$/)
    .meta({ description, examples });

const balanceText = (description: string) =>
  z
    .string()
    .regex(/^-?(0|[1-9][0-9]*)\.[0-9]{2}$/)
    .meta({ description: `${description} In rupees with two fraction digits, as mainwallet.`, examples: ['4765.00'] });

const entrySchema = z
  .object({
    id: z
      .string()
      .regex(/^[1-9][0-9]{0,18}$/)
      .meta({ description: 'Our id of the entry: digits, increasing as entries are posted.', examples: ['918273'] }),
    time: z.string().meta({
      description: 'When the movement was posted: India time with its offset, to the millisecond.',
      examples: ['2026-12-01T10:15:30.123+05:30'],
    }),
    type: z.enum(ENTRY_TYPES).meta({
      description:
        'PAYOUT: a payout accepted, its amount taken. PAYOUT_FAILED: a payout failed (or was cancelled, or ' +
        'expired), its amount back. PAYOUT_REVERSED: a paid payout the beneficiary bank returned, its amount back. ' +
        'PAYOUT_CHARGED: a payout that failed here but the bank paid, charged after all. WALLET_CREDIT: the main ' +
        'wallet funded. PAYIN: a pay-in received.',
    }),
    description: z.string().meta({ description: 'The type in words.', examples: ['Pay-in received'] }),
    amount: signedRupees('What the entry did to the balance, in rupees: negative when money left the wallet.', [
      '-101.00',
      '2500.00',
    ]),
    balance_after: balanceText('The available balance right after this entry.'),
    TransactionID: z
      .string()
      .regex(/^[0-9]{1,30}$/)
      .nullable()
      .meta({
        description: "The payout's or pay-in's TransactionID, digit for digit; null for a wallet credit.",
        examples: ['20240601000123'],
      }),
    reference: z
      .string()
      .nullable()
      .meta({ description: "A wallet credit's reference; null for the other types.", examples: ['NEFT-20261201-01'] }),
  })
  .meta({ id: 'StatementEntry', description: 'One movement of the main wallet.' });

export type StatementEntryBody = z.infer<typeof entrySchema>;

/** One entry as the statement writes it, the balance after it being `balanceAfter`. */
export function statementEntryBody(entry: StatementEntrySource, balanceAfter: Paise): StatementEntryBody {
  const words = STATEMENT_WORDS[entry.kind];
  // The statement reads the MAIN_WALLET account only, so a kind that never moves it cannot come here.
  if (!words) throw new Error(`ledger entry ${entry.id} (${entry.kind}) does not move the main wallet`);
  return {
    id: entry.id.toString(),
    time: istTimestamp(entry.createdAt),
    type: words.type,
    description: words.description,
    amount: formatRupees(entry.amountPaise),
    balance_after: formatRupees(balanceAfter),
    TransactionID: entry.transactionId,
    reference: entry.reference,
  };
}

// ----- the JSON body

export const statementSchema = z
  .object({
    ...okHead(200, 'Success'),
    from: z.string().meta({
      description: "The period's start (included), India time.",
      examples: ['2026-12-01T00:00:00.000+05:30'],
    }),
    to: z
      .string()
      .nullable()
      .meta({
        description: "The period's end (not included), India time; null when it runs up to now.",
        examples: ['2026-12-02T00:00:00.000+05:30'],
      }),
    opening_balance: balanceText('The available balance at from: before any entry of the period.'),
    closing_balance: balanceText(
      "The available balance at to, or now: after every entry of the period. Without to, it is the wallet lookup's mainwallet.",
    ),
    entries: z.array(entrySchema).meta({
      description:
        "This page's entries, oldest first (by time, then id). The first page's first entry starts from " +
        'opening_balance; each balance_after is the balance before it plus its amount. Empty when none.',
    }),
    next_cursor: z
      .string()
      .nullable()
      .meta({
        description:
          'Send it as `cursor` for the next page; null on the last page. Opaque: keep it as it is. It carries its ' +
          'period.',
        examples: [
          encodeStatementCursor(
            { from: new Date('2026-11-30T18:30:00.000Z'), to: new Date('2026-12-01T18:30:00.000Z') },
            { createdAt: new Date('2026-12-01T04:45:30.123Z'), id: 918273n },
          ),
        ],
      }),
  })
  .meta({
    id: 'Statement',
    description: 'A page of the statement of your main wallet: the period, its balances and its entries.',
  });

export type StatementBody = z.infer<typeof statementSchema>;

/** A page of the statement as the database reads it, in one snapshot. */
export interface StatementPageSource {
  openingPaise: Paise;
  closingPaise: Paise;
  /** The balance right before the page's first entry. */
  balanceBeforePaise: Paise;
  entries: readonly StatementEntrySource[];
  /** Whether entries follow the last one of this page. */
  more: boolean;
}

/** GET /api/statement's JSON body: the period, its balances, the page's entries with their running balance. */
export function statementBody(period: StatementPeriod, page: StatementPageSource): StatementBody {
  let balance = page.balanceBeforePaise;
  const entries = page.entries.map((entry) => statementEntryBody(entry, (balance += entry.amountPaise)));
  const last = page.entries.at(-1);
  return {
    error: false,
    status_code: 200,
    status: 'Success',
    from: istTimestamp(period.from),
    to: period.to ? istTimestamp(period.to) : null,
    opening_balance: formatRupees(page.openingPaise),
    closing_balance: formatRupees(page.closingPaise),
    entries,
    next_cursor: page.more && last ? encodeStatementCursor(period, last) : null,
  };
}

// ----- the CSV file

/** The CSV's columns: a bank statement's, money in two unsigned columns so no cell starts with a sign. */
export const STATEMENT_CSV_COLUMNS = [
  'Time',
  'Type',
  'Description',
  'TransactionID',
  'Reference',
  'Debit',
  'Credit',
  'Balance',
  'EntryID',
] as const;

/** The file's name: the MID and the period's first and last India days. */
export function statementFileName(mid: string, period: StatementPeriod, now: Date): string {
  const last = period.to ? new Date(period.to.getTime() - 1) : now;
  return `statement-${mid}-${istTimestamp(period.from).slice(0, 10)}-to-${istTimestamp(last).slice(0, 10)}.csv`;
}

/**
 * The CSV file's rows, one at a time as the entries arrive: the column names, the opening balance, each entry
 * with the balance after it, and the closing balance — the opening plus every entry written, so the file always
 * adds up, however long it took to write. `closedAt` says when the closing balance stands (`to`, or now).
 */
export async function* statementCsvRows(
  period: StatementPeriod,
  openingPaise: Paise,
  entries: AsyncIterable<StatementEntrySource>,
  closedAt: () => Date,
): AsyncGenerator<string[]> {
  yield [...STATEMENT_CSV_COLUMNS];
  yield [
    istTimestamp(period.from),
    'OPENING_BALANCE',
    'Balance at the start of the period',
    '',
    '',
    '',
    '',
    formatRupees(openingPaise),
    '',
  ];
  let balance = openingPaise;
  for await (const entry of entries) {
    balance += entry.amountPaise;
    const body = statementEntryBody(entry, balance);
    const magnitude = formatRupees(entry.amountPaise < 0n ? -entry.amountPaise : entry.amountPaise);
    yield [
      body.time,
      body.type,
      body.description,
      body.TransactionID ?? '',
      body.reference ?? '',
      entry.amountPaise < 0n ? magnitude : '',
      entry.amountPaise < 0n ? '' : magnitude,
      body.balance_after,
      body.id,
    ];
  }
  yield [
    istTimestamp(period.to ?? closedAt()),
    'CLOSING_BALANCE',
    'Balance at the end of the period',
    '',
    '',
    '',
    '',
    formatRupees(balance),
    '',
  ];
}
