import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { payoutListQuerySchema, payoutListSchema } from '@payout/contract';

// The merchant's payout list (docs/api.md, "Listing payouts"), its query and body from the wire contract.
// Registered by openapi-document.ts with its shared outcomes.

interface SharedOutcomes {
  response: (description: string, schema: z.ZodType, extra?: Partial<ResponseConfig>) => ResponseConfig;
  common: Record<number, ResponseConfig>;
  validation: (what: string) => ResponseConfig;
  /** The invalid-MID body with status FAILED. */
  invalidMid: z.ZodType;
  security: { MID: string[]; Token: string[] }[];
}

export function registerPayoutListPaths(registry: OpenAPIRegistry, shared: SharedOutcomes): void {
  const { response, common, validation, invalidMid, security } = shared;
  registry.registerPath({
    method: 'get',
    path: '/api/payouts',
    operationId: 'listPayouts',
    tags: ['Status lookups'],
    summary: 'Your payouts, newest first, a page at a time',
    description:
      'Your payouts (IMPS and UPI, single and bulk), newest first by the time each was accepted, each exactly as ' +
      'GET /api/check_payout_status shows it. Narrow them with any of the filters; page with `cursor`: send the ' +
      "page's `next_cursor` back with the same filters until it is null. Pages never shift: payouts accepted while " +
      'you page are not slipped into the pages still to come, nor do they push one payout onto two pages. A ' +
      'parameter not listed here, or given twice, is refused (422), as is a cursor sent with other filters.',
    security,
    request: { query: payoutListQuerySchema },
    responses: {
      200: response('A page of your payouts.', payoutListSchema),
      400: response('Malformed MID, or merchant suspended.', invalidMid),
      422: validation(
        'a parameter this list does not have, one given twice or breaking its rule, `to` not later than `from`, or a ' +
          'cursor that is not the next_cursor of this list with these filters',
      ),
      ...common,
    },
  });
}
