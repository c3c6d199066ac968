import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  STATEMENT_CSV_COLUMNS,
  STATEMENT_MAX_DAYS,
  statementQuerySchema,
  statementSchema,
  walletNotFoundSchema,
} from '@payout/contract';

// The statement of the merchant's main wallet (docs/api.md, "Statement"), its query and bodies from the wire
// contract. Registered by openapi-document.ts with its shared outcomes.

interface SharedOutcomes {
  response: (description: string, schema: z.ZodType, extra?: Partial<ResponseConfig>) => ResponseConfig;
  common: Record<number, ResponseConfig>;
  validation: (what: string) => ResponseConfig;
  /** The invalid-MID body with status BAD REQUEST, the wallet lookup's. */
  invalidMid: z.ZodType;
  security: { MID: string[]; Token: string[] }[];
}

const csvFile = z.string().meta({
  description:
    `The columns ${STATEMENT_CSV_COLUMNS.join(', ')}; then the opening balance (Type OPENING_BALANCE), one row per ` +
    'entry oldest first (money out in Debit, in in Credit, both unsigned; Balance after it), and the closing ' +
    'balance (Type CLOSING_BALANCE). A cell a spreadsheet would run as a formula (starting = + - @) is written ' +
    "after a ' so it never runs.",
  examples: [
    'Time,Type,Description,TransactionID,Reference,Debit,Credit,Balance,EntryID\r\n' +
      '2026-12-01T00:00:00.000+05:30,OPENING_BALANCE,Balance at the start of the period,,,,,4765.00,\r\n' +
      '2026-12-01T10:15:30.123+05:30,PAYOUT,Payout accepted: its amount taken from the main wallet,20240601000123,,101.00,,4664.00,918273\r\n' +
      '2026-12-02T00:00:00.000+05:30,CLOSING_BALANCE,Balance at the end of the period,,,,,4664.00,\r\n',
  ],
});

export function registerStatementPaths(registry: OpenAPIRegistry, shared: SharedOutcomes): void {
  const { response, common, validation, invalidMid, security } = shared;
  registry.registerPath({
    method: 'get',
    path: '/api/statement',
    operationId: 'statement',
    tags: ['Wallet'],
    summary: 'Your main wallet statement for a period',
    description:
      'Every movement of your main wallet in a period, oldest first, with the balance after each: payouts ' +
      'accepted (their amount taken), payouts failed or reversed (their amount back), credits and pay-ins. The ' +
      'balance is the one GET /api/checkMainWallet shows: opening_balance plus the entries of the period is ' +
      'closing_balance, and without `to` the closing balance is that lookup. The period is today (India time) so ' +
      `far unless given, at most ${STATEMENT_MAX_DAYS} days. Page with \`cursor\`: send the page's \`next_cursor\` ` +
      'back until it is null. `format=csv` answers the whole period as one CSV file instead. A parameter not ' +
      'listed here, or given twice, is refused (422), as is a cursor of another period.',
    security,
    request: { query: statementQuerySchema },
    responses: {
      200: response(
        'A page of your statement (format json), or the whole period as a CSV file (format csv).',
        statementSchema,
        {
          headers: {
            'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
            'Content-Disposition': {
              description: 'With format csv: attachment; filename="statement-<MID>-<first day>-to-<last day>.csv".',
              schema: { type: 'string' },
            },
          },
          content: {
            'application/json': { schema: statementSchema },
            'text/csv': { schema: csvFile },
          },
        },
      ),
      400: response('Malformed MID, or merchant suspended.', invalidMid),
      404: response('Your main wallet has never been funded.', walletNotFoundSchema),
      422: validation(
        'a parameter the statement does not have, one given twice or breaking its rule, to without from, a period ' +
          `that is empty or longer than ${STATEMENT_MAX_DAYS} days, limit or cursor with format csv, or a cursor ` +
          'that is not a next_cursor of this statement',
      ),
      ...common,
    },
  });
}
