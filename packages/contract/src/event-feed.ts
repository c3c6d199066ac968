import { z } from 'zod';
import { AppError, type BankDowntime, type PayoutResultSource } from '@payout/domain';
import { okHead } from './members.js';
import { queryParameter } from './query-parameters.js';
import { fieldErrors, optional, type FieldError } from './requests/request-fields.js';
import {
  downtimeWebhookPayload,
  downtimeWebhookPayloadSchema,
  webhookPayload,
  webhookPayloadSchema,
  type DowntimeWebhookPayload,
  type WebhookPayload,
} from './webhook-payload.js';

// GET /api/events (docs/api.md, "Events feed"): every event a webhook carries, for a merchant to read in order
// from where it stopped. Each item is its position in the merchant's feed, then exactly the body its webhook
// carries, built by the webhook's own builders (webhook-payload.ts), so a merchant can hand it to the code that
// handles its webhooks.

// ----- the query

/** How many events a page holds unless `limit` says otherwise, and at most. */
export const EVENT_FEED_DEFAULT_LIMIT = 100;
export const EVENT_FEED_MAX_LIMIT = 500;

/** The largest position (PostgreSQL's bigint): `after` beyond it could name no event. */
const MAX_POSITION = 2n ** 63n - 1n;

const AFTER_RULE = `0 or a position this feed gave you: a whole number from 0 to ${MAX_POSITION}`;
const LIMIT_RULE = `a whole number from 1 to ${EVENT_FEED_MAX_LIMIT}`;

/**
 * The query of GET /api/events, both parameters optional (absent and "" mean not given). A parameter not
 * listed here is refused by {@link parseEventFeedQuery}, not ignored.
 */
export const eventFeedQuerySchema = z.object({
  after: optional(
    queryParameter('after', AFTER_RULE)
      .regex(/^[0-9]{1,19}$/, `after must be ${AFTER_RULE}`)
      .transform(BigInt)
      .refine((n) => n <= MAX_POSITION, `after must be ${AFTER_RULE}`),
  ).meta({
    type: 'string',
    pattern: '^[0-9]{1,19}$',
    description:
      'Only events after this position: the `next_after` of your previous page (or the position of the last event ' +
      'you applied). 0 unless given: from your first event.',
    examples: ['0', '4711'],
  }),
  limit: optional(
    queryParameter('limit', LIMIT_RULE)
      .regex(/^[1-9][0-9]{0,2}$/, `limit must be ${LIMIT_RULE}`)
      .transform(Number)
      .refine((n) => n <= EVENT_FEED_MAX_LIMIT, `limit must be ${LIMIT_RULE}`),
  ).meta({
    type: 'integer',
    minimum: 1,
    maximum: EVENT_FEED_MAX_LIMIT,
    description: `Events per page: 1 to ${EVENT_FEED_MAX_LIMIT}, ${EVENT_FEED_DEFAULT_LIMIT} unless given.`,
  }),
});

const PARAMETERS = Object.keys(eventFeedQuerySchema.shape);

export interface EventFeedRequest {
  /** The page starts just after this position. */
  after: bigint;
  limit: number;
}

/**
 * Reads GET /api/events's query, or throws the contract's 422 listing every parameter at fault: one not of
 * this feed, one given twice, or one breaking its rule.
 */
export function parseEventFeedQuery(query: Record<string, unknown>): EventFeedRequest {
  const errors: FieldError[] = Object.keys(query)
    .filter((name) => !PARAMETERS.includes(name))
    .map((name) => {
      const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
      return { field: shown, message: `${shown} is not a parameter of this feed (${PARAMETERS.join(', ')})` };
    });
  const known = Object.fromEntries(Object.entries(query).filter(([name]) => PARAMETERS.includes(name)));
  const parsed = eventFeedQuerySchema.safeParse(known);
  if (!parsed.success) errors.push(...fieldErrors(parsed.error));
  if (errors.length > 0 || !parsed.success) throw AppError.validation(errors);
  return { after: parsed.data.after ?? 0n, limit: parsed.data.limit ?? EVENT_FEED_DEFAULT_LIMIT };
}

// ----- the body

/** What a webhook tells: a payout's result as it is now, or a bank downtime's start or resolution. */
export type WebhookBodySubject =
  { kind: 'payout'; payout: PayoutResultSource } | { kind: 'downtime'; resolved: boolean; downtime: BankDowntime };

/**
 * The body of the webhook that tells of `subject`, with the `sequence` its event was given: a payout webhook or
 * a downtime webhook, each from its own builder (docs/webhooks.md, "The request" and "Downtime webhooks").
 */
export function webhookBody(subject: WebhookBodySubject, sequence: number): WebhookPayload | DowntimeWebhookPayload {
  return subject.kind === 'payout'
    ? webhookPayload(subject.payout, sequence)
    : downtimeWebhookPayload(subject.downtime, subject.resolved, sequence);
}

/** One event of the feed, as the repository reads it (packages/db's FeedEvent). */
export interface FeedEventSource {
  position: bigint;
  sequence: number;
  subject: WebhookBodySubject;
}

const POSITION = /^[1-9][0-9]{0,18}$/;

const position = z
  .string()
  .regex(POSITION)
  .meta({
    description:
      "The event's position in your feed: 1, 2, 3, … in the order your events were recorded, as a string of digits. " +
      'Send the last one you applied as `after` to continue from it.',
    examples: ['4711'],
  });

const positioned = z.object({ position });

export const feedEventSchema = z
  .union([z.intersection(positioned, webhookPayloadSchema), z.intersection(positioned, downtimeWebhookPayloadSchema)])
  .meta({
    id: 'FeedEvent',
    description:
      'An event: its `position`, then exactly the members of the webhook that carries it — a payout webhook (the ' +
      'payout result as it is now, `event`, `sequence`) or a downtime webhook (the downtime, `event`, `sequence`).',
  });

export type FeedEventBody = { position: string } & (WebhookPayload | DowntimeWebhookPayload);

export const eventFeedSchema = z
  .object({
    ...okHead(200, 'Success'),
    events: z.array(feedEventSchema).meta({
      description: `Your events after \`after\`, oldest first, at most \`limit\`. Fewer than \`limit\`: you have read every event recorded so far.`,
    }),
    next_after: z
      .string()
      .regex(/^[0-9]{1,19}$/)
      .meta({
        description:
          'Send it as `after` for the next page: the position of the last event of this page, or, when the page is ' +
          'empty, the `after` you sent.',
        examples: ['4711'],
      }),
  })
  .meta({ id: 'EventFeed', description: 'A page of your events feed, oldest first.' });

export type EventFeedBody = Omit<z.infer<typeof eventFeedSchema>, 'events'> & { events: FeedEventBody[] };

/** One item of the feed: its position, then its webhook's body. */
export function feedEventBody(e: FeedEventSource): FeedEventBody {
  return { position: e.position.toString(), ...webhookBody(e.subject, e.sequence) };
}

/** GET /api/events's body: the page's events, and where the next page starts. */
export function eventFeedBody(events: readonly FeedEventSource[], after: bigint): EventFeedBody {
  return {
    error: false,
    status_code: 200,
    status: 'Success',
    events: events.map(feedEventBody),
    next_after: (events.at(-1)?.position ?? after).toString(),
  };
}
