import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { eventFeedQuerySchema, eventFeedSchema } from '@payout/contract';

// The merchant's events feed (docs/api.md, "Events feed"), its query and body from the wire contract.
// Registered by openapi-document.ts with its shared outcomes.

interface SharedOutcomes {
  response: (description: string, schema: z.ZodType, extra?: Partial<ResponseConfig>) => ResponseConfig;
  common: Record<number, ResponseConfig>;
  validation: (what: string) => ResponseConfig;
  /** The invalid-MID body with status FAILED. */
  invalidMid: z.ZodType;
  security: { MID: string[]; Token: string[] }[];
}

export function registerEventFeedPaths(registry: OpenAPIRegistry, shared: SharedOutcomes): void {
  const { response, common, validation, invalidMid, security } = shared;
  registry.registerPath({
    method: 'get',
    path: '/api/events',
    operationId: 'events',
    tags: ['Events'],
    summary: 'Every event your webhooks carry, in order, from a position',
    description:
      'Every event a webhook tells you of — payout.success, payout.failed, payout.reversed, downtime.started, ' +
      'downtime.resolved — whether or not it could be delivered to you, oldest first. Each is its `position` in ' +
      'your feed, then exactly the members of its webhook, with the same `sequence`. Read from `after=0`, then send ' +
      "each page's `next_after` back as `after`; a page shorter than `limit` means you are up to date. An event " +
      'appears once every event before it has appeared, so continuing from a position never skips one. A ' +
      'parameter not listed here, or given twice, is refused (422).',
    security,
    request: { query: eventFeedQuerySchema },
    responses: {
      200: response('A page of your events.', eventFeedSchema),
      400: response('Malformed MID, or merchant suspended.', invalidMid),
      422: validation('a parameter this feed does not have, or one given twice or breaking its rule'),
      ...common,
    },
  });
}
