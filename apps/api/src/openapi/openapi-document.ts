import { type OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  badBodySchema,
  cancelPayoutRequestSchema,
  collectionStatusSchema,
  conflictSchema,
  downtimesSchema,
  downtimeWebhookPayloadSchema,
  errorBody,
  internalErrorSchema,
  invalidMidSchema,
  invalidPayoutTypeSchema,
  mainWalletSchema,
  MESSAGES,
  PAYOUT_RESULT_SCHEMAS,
  payloadTooLargeSchema,
  payoutAlreadySentSchema,
  payoutResult,
  payoutStatusSchema,
  rateLimitedSchema,
  transactionNotFoundSchema,
  unauthorizedSchema,
  unavailableSchema,
  unsupportedMediaTypeSchema,
  validationErrorSchema,
  walletNotFoundSchema,
  webhookPayloadSchema,
  impsPayoutRequestSchema,
  transactionQuerySchema,
  upiPayoutRequestSchema,
} from '@payout/contract';
import { AppError, type ErrorCode, type PayoutMode } from '@payout/domain';
import { registerBulkAndValidationPaths } from './bulk-and-validation-paths.js';
import { registerEventFeedPaths } from './event-feed-paths.js';
import { IdempotentPostsRegistry } from './idempotency-key-paths.js';
import { registerPayoutListPaths } from './payout-list-paths.js';
import { registerStatementPaths } from './statement-paths.js';
import { registerTokenPaths } from './token-paths.js';

// Every body below is a schema of the wire contract (packages/contract), the one place that also builds
// it, so the document describes what the API answers. The request schemas are the very objects the
// routes validate with, so the document cannot describe a rule the API does not apply (or miss one it
// does, beyond what JSON Schema can say: see their `.meta`).

const OVERVIEW = `
The payout gateway's merchant API: pay out from your main wallet to bank accounts (IMPS) and UPI addresses,
and look up payouts, pay-ins and your balance.

**Authentication.** Every operation needs the headers \`MID\` and \`Token\`: a token you made yourself (the
SDK's \`payout-token\`), whose digest we registered, or one this API answered you. A missing or wrong pair is
401, and so is a right pair sent from an address outside your IP allow-list, if you have one; a malformed MID
(or a suspended merchant) is 400 "Please Input Valid MID". Nothing else of the request is read before
authentication. Rotate your token yourself with \`POST /api/token/rotate\`, and fetch your webhook signing
secret with \`POST /api/webhook/secret\`: nobody at the gateway ever sees either.

**Every answer** is a JSON object with \`error\` (boolean), \`status_code\` (equal to the HTTP status) and
\`status\` (text), and carries an \`X-Request-Id\` header: quote it to support.

**Numbers.** \`TransactionID\`, \`Amount\`, \`Account\` and \`Mobile\` may be sent as JSON numbers or as strings.
Numbers are read from their exact text, never as floating point: a 23-digit TransactionID keeps every digit and
\`101.5\` is exactly 101.50 rupees. Parse answers losslessly too: UPI results carry \`Amount\` (e.g. \`101.00\`)
and \`TransactionID\` as JSON numbers.

**Payouts are asynchronous.** A payout answers 202 PENDING once the amount is reserved from your main
wallet; the bank's outcome comes later. Poll \`GET /api/check_payout_status\` until \`status\` is Success or
Failed (a failed payout's amount returns to the main wallet).

**Retries are safe.** A TransactionID identifies one payout per MID. Sending the same TransactionID again
with the same details (mode, beneficiary, amount) makes no second payout: the answer is the payout's current
state (202, 200 or 400). After a time-out, a 503 or a lost connection, retry with the same TransactionID.
The same TransactionID with different details is 409 and changes nothing.

**Idempotency-Key.** Every POST also takes an optional \`Idempotency-Key\` (1 to 255 visible ASCII characters,
kept 24 hours per MID): the same key with the same request is answered the first answer again, byte for byte,
with \`Idempotent-Replayed: true\`; with another request it is 422, and while the first request still runs, 409.

**Limits.** POST bodies must be \`Content-Type: application/json\` (else 415), at most 16 KiB (else 413).
Requests are rate-limited per MID: 429 with \`Retry-After\` (seconds).
`.trim();

const requestIdHeader = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

function response(description: string, schema: z.ZodType, extra: Partial<ResponseConfig> = {}): ResponseConfig {
  return { description, headers: requestIdHeader, content: json(schema), ...extra };
}

/** One status code that answers with several bodies; each gets a named example. */
function oneOfResponses(
  description: string,
  bodies: { name: string; summary: string; schema: z.ZodType; example: Record<string, unknown> }[],
): ResponseConfig {
  return {
    description,
    headers: requestIdHeader,
    content: {
      'application/json': {
        schema: z.union(bodies.map((b) => b.schema) as [z.ZodType, z.ZodType, ...z.ZodType[]]),
        examples: Object.fromEntries(bodies.map((b) => [b.name, { summary: b.summary, value: b.example }])),
      },
    },
  };
}

const invalidMidFailed = invalidMidSchema('FAILED', 'InvalidMid');
const invalidMidBadRequest = invalidMidSchema('BAD REQUEST', 'InvalidMidWallet');

/** An error body as the API builds it, for an example. */
const errorExample = (code: ErrorCode, message: string, details?: Record<string, unknown>) =>
  errorBody(new AppError(code, message, { details }));

const invalidMidExample = (status: string) => errorExample('INVALID_MID', MESSAGES.invalidMid, { status });

/** Outcomes every operation can have. */
const common = {
  401: response('Credentials missing, unknown or wrong.', unauthorizedSchema),
  429: response('Rate limit for this MID reached.', rateLimitedSchema, {
    headers: {
      ...requestIdHeader,
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
    },
  }),
  500: response('Something unexpected; retrying later with the same TransactionID is safe.', internalErrorSchema),
  503: response('PostgreSQL is unreachable; retry with the same TransactionID.', unavailableSchema),
};

const postOnly = {
  413: response('Body over 16 KiB.', payloadTooLargeSchema),
  415: response('Content-Type is not application/json.', unsupportedMediaTypeSchema),
};

const validation = (what: string) =>
  response(`Validation failed: ${what}. \`errors\` lists each failing member.`, validationErrorSchema);

/** What a payout operation's document says differently by mode; the bodies come from the contract. */
const PAYOUT_OPERATION: Record<PayoutMode, { numbersNote: string; account: string; ifsc: string | null }> = {
  IMPS: { numbersNote: '', account: '123456789012', ifsc: 'HDFC0001234' },
  UPI: { numbersNote: ' `Amount` and `TransactionID` are JSON numbers.', account: 'asha.kumar@okhdfc', ifsc: null },
};

function payoutOperation(mode: PayoutMode) {
  const { PENDING: pending, SUCCESS: success, FAILED: failed } = PAYOUT_RESULT_SCHEMAS[mode];
  const { numbersNote, account, ifsc } = PAYOUT_OPERATION[mode];
  const failedExample = payoutResult({
    mode,
    status: 'FAILED',
    transactionId: '20240601000123',
    amountPaise: 10100n,
    ackNo: '06F3K9Q2ZC4M7XR1B8TD',
    account,
    ifsc,
    bankReference: null,
    failureReason: 'INSUFFICIENT_BALANCE',
  }).body;
  return {
    202: response(
      'Accepted (PENDING): the amount is reserved and the payout is on its way to the bank. Poll ' +
        '`GET /api/check_payout_status` for the outcome. Also the answer to a retry of a payout still in progress.' +
        numbersNote,
      pending,
    ),
    200: response(
      'SUCCESS: only as the answer to a retry (same TransactionID and details) of a payout that has succeeded; ' +
        '`Bankriff` is the bank reference.' +
        numbersNote,
      success,
    ),
    400: oneOfResponses(
      'FAILED (not enough available balance, or the answer to a retry of a failed payout: the TransactionID is ' +
        'used up), or a malformed MID, or a body that is not a JSON object.',
      [
        { name: 'failed', summary: 'Payout failed (MP007)', schema: failed, example: failedExample },
        {
          name: 'invalidMid',
          summary: 'Malformed MID',
          schema: invalidMidFailed,
          example: invalidMidExample('FAILED'),
        },
        {
          name: 'badBody',
          summary: 'Body not a JSON object',
          schema: badBodySchema,
          example: errorExample('BAD_REQUEST', MESSAGES.badJson),
        },
      ],
    ),
    ...common,
    409: response('The TransactionID is already used for a different payout. Nothing changed.', conflictSchema),
    ...postOnly,
    422: validation('a member of the body breaks its rule or a required member is missing'),
  };
}

const lookupResponses = (found: z.ZodType, what: string) => ({
  200: response(`The ${what}.`, found),
  400: response('Malformed MID, or merchant suspended.', invalidMidFailed),
  404: response('No transaction of yours has this TransactionID.', transactionNotFoundSchema),
  422: validation('TransactionID missing, repeated, or not 1 to 30 digits'),
  ...common,
});

const security = [{ MID: [], Token: [] }];

/** A payout body, with one example writing numbers as strings and one as JSON numbers (both accepted). */
function payoutBody(schema: z.ZodType, asStrings: Record<string, unknown>, asNumbers: Record<string, unknown>) {
  return {
    required: true,
    content: {
      'application/json': {
        schema,
        examples: {
          strings: { summary: 'Numbers as strings', value: asStrings },
          numbers: { summary: 'Numbers as JSON numbers', value: asNumbers },
        },
      },
    },
  };
}

const beneficiary = { Name: 'Asha Kumar', Email: 'asha@example.com', Description: 'Salary June' };
const impsBeneficiary = { ...beneficiary, BankName: 'HDFC Bank', Ifsc: 'HDFC0001234' };

// The document lists the operations in the order they are registered here.
function buildRegistry(): OpenAPIRegistry {
  // Every POST takes an Idempotency-Key (docs/api.md, "Idempotency keys"), documented in idempotency-key-paths.ts.
  const registry = new IdempotentPostsRegistry();
  registerComponents(registry);
  registerPayoutPaths(registry);
  registerCancelPath(registry);
  registerLookupPaths(registry);
  registerWalletPath(registry);
  registerDowntimePath(registry);
  registerWebhooks(registry);
  const shared = { response, common, postOnly, validation, invalidMid: invalidMidFailed, security };
  registerBulkAndValidationPaths(registry, shared);
  registerTokenPaths(registry, shared);
  registerPayoutListPaths(registry, shared);
  registerEventFeedPaths(registry, shared);
  registerStatementPaths(registry, { ...shared, invalidMid: invalidMidBadRequest });
  return registry;
}

/** The two credentials every operation needs, and the request id every answer carries. */
function registerComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'MID', {
    type: 'apiKey',
    in: 'header',
    name: 'MID',
    description: 'Your merchant identifier: 1 to 64 of A-Z a-z 0-9 _ -. Always sent together with Token.',
  });
  registry.registerComponent('securitySchemes', 'Token', {
    type: 'apiKey',
    in: 'header',
    name: 'Token',
    description: 'Your API token. You may hold two at once, so rotating a token needs no downtime.',
  });
  registry.registerComponent('headers', 'X-Request-Id', {
    description: 'The id of this request in our logs: yours if you sent a sane X-Request-Id, else a new one.',
    schema: { type: 'string' },
  });
}

const payoutDescription = (mode: string) =>
  `Sends money from your main wallet ${mode}. Answers 202 PENDING once the amount is reserved; poll ` +
  '`GET /api/check_payout_status` for the outcome. Retrying with the same TransactionID and details is safe ' +
  '(no second payout; the answer is the current state).';

function registerPayoutPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/impspayout',
    operationId: 'impsPayout',
    tags: ['Payouts'],
    summary: 'IMPS payout to a bank account',
    description: payoutDescription('to a bank account over IMPS'),
    security,
    request: {
      body: payoutBody(
        impsPayoutRequestSchema,
        {
          ...impsBeneficiary,
          TransactionID: '20240601000123',
          Amount: '101.00',
          Account: '123456789012',
          Mobile: '9876543210',
        },
        { ...impsBeneficiary, TransactionID: 20240601000123, Amount: 101.5, Account: 123456789012, Mobile: 9876543210 },
      ),
    },
    responses: payoutOperation('IMPS'),
  });
  registry.registerPath({
    method: 'post',
    path: '/api/payout',
    operationId: 'upiPayout',
    tags: ['Payouts'],
    summary: 'UPI payout to a UPI address',
    description: `${payoutDescription('to a UPI address')} PENDING and SUCCESS results carry Amount and TransactionID as JSON numbers.`,
    security,
    request: {
      body: payoutBody(
        upiPayoutRequestSchema,
        {
          ...beneficiary,
          TransactionID: '20240601000124',
          Amount: '101.00',
          Upi: 'asha.kumar@okhdfc',
          Mobile: '9876543210',
        },
        { ...beneficiary, TransactionID: 20240601000124, Amount: 101.5, Upi: 'asha.kumar@okhdfc', Mobile: 9876543210 },
      ),
    },
    responses: payoutOperation('UPI'),
  });
}

function registerCancelPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/payout/cancel',
    operationId: 'cancelPayout',
    tags: ['Payouts'],
    summary: 'Cancel a payout no bank has been sent',
    description:
      'Withdraws a payout that is accepted and not yet taken for a bank, held through a downtime, or queued for ' +
      'balance: it fails with reason_code CANCELLED_BY_MERCHANT, what was reserved is back in your main wallet, ' +
      'and your webhook tells of it. Cancelling it again answers the same. A cancel and a worker taking the ' +
      'payout at the same moment are decided one after the other: exactly one wins.',
    security,
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: cancelPayoutRequestSchema,
            examples: {
              string: { summary: 'TransactionID as a string', value: { TransactionID: '20240601000123' } },
              number: { summary: 'TransactionID as a JSON number', value: { TransactionID: 20240601000123 } },
            },
          },
        },
      },
    },
    responses: {
      200: response('Cancelled (now, or by an earlier cancel): the payout as its lookup shows it.', payoutStatusSchema),
      400: response(
        'Malformed MID (or merchant suspended), or the body is not a JSON object.',
        z.union([invalidMidFailed, badBodySchema]),
      ),
      404: response('No payout of yours has this TransactionID.', transactionNotFoundSchema),
      409: response('A bank has the payout already. Nothing changed.', payoutAlreadySentSchema),
      ...postOnly,
      422: validation('TransactionID missing or not 1 to 30 digits'),
      ...common,
    },
  });
}

function registerLookupPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/check_payout_status',
    operationId: 'checkPayoutStatus',
    tags: ['Status lookups'],
    summary: 'Status of a payout',
    description:
      'The payout sent with this TransactionID (IMPS or UPI). `status` is Pending until the bank has decided, ' +
      'then Success or Failed, never changing after that.',
    security,
    request: { query: transactionQuerySchema },
    responses: lookupResponses(payoutStatusSchema, 'payout'),
  });
  registry.registerPath({
    method: 'get',
    path: '/api/payin/status',
    operationId: 'payinStatus',
    tags: ['Status lookups'],
    summary: 'Status of a pay-in (collection)',
    description: 'The pay-in reported to us with this TransactionID.',
    security,
    request: { query: transactionQuerySchema },
    responses: lookupResponses(collectionStatusSchema, 'pay-in'),
  });
}

function registerWalletPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/checkMainWallet',
    operationId: 'checkMainWallet',
    tags: ['Wallet'],
    summary: 'Main wallet balance',
    description: 'The available balance of your main wallet: credits minus payouts settled and in progress.',
    security,
    request: {
      // Checked by the route itself (any other value is 400, not 422), so documented here.
      query: z.object({
        PayoutType: z.literal('Main_Wallet_Balance').meta({ description: 'Always Main_Wallet_Balance.' }),
      }),
    },
    responses: {
      200: response('The balance.', mainWalletSchema),
      400: oneOfResponses('Malformed MID (or merchant suspended), or PayoutType missing or not Main_Wallet_Balance.', [
        {
          name: 'invalidMid',
          summary: 'Malformed MID',
          schema: invalidMidBadRequest,
          example: invalidMidExample('BAD REQUEST'),
        },
        {
          name: 'invalidPayoutType',
          summary: 'Bad PayoutType',
          schema: invalidPayoutTypeSchema,
          example: errorExample('BAD_REQUEST', MESSAGES.invalidPayoutType),
        },
      ]),
      404: response('Your main wallet has never been funded.', walletNotFoundSchema),
      ...common,
    },
  });
}

function registerDowntimePath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/downtimes',
    operationId: 'downtimes',
    tags: ['Bank downtimes'],
    summary: 'Sponsor banks down or degraded now',
    description:
      'Each sponsor bank down or degraded for a payment mode now, oldest first; empty when none. While every bank ' +
      'serving a mode is down, new payouts of that mode are held (Pending, "MP006 - Your transaction is held: …") ' +
      'and sent when one recovers, or fail with reason_code BANK_DOWNTIME past your hold window; retrying those ' +
      'is safe. The webhooks downtime.started and downtime.resolved carry the same members.',
    security,
    responses: {
      200: response('The downtimes open now.', downtimesSchema),
      400: response('Malformed MID, or merchant suspended.', invalidMidFailed),
      ...common,
    },
  });
}

/** The webhooks the gateway sends to your registered URL (docs/webhooks.md), signed with your secret. */
function registerWebhooks(registry: OpenAPIRegistry): void {
  const signed = z.object({
    'X-Webhook-Id': z.string().meta({ description: 'The delivery: the same on every retry of it.' }),
    'X-Webhook-Attempt': z.string().meta({ description: 'This attempt of the delivery, from 1.' }),
    'X-Webhook-Sequence': z.string().meta({ description: "The body's sequence, repeated; trust the body's." }),
  });
  registry.registerComponent('securitySchemes', 'WebhookSignature', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Webhook-Signature',
    description:
      'How you know the gateway sent it: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with your ' +
      'webhook secret> (a second v1 for 24 hours after the secret changed; docs/webhooks.md).',
  });
  const signedBy = [{ WebhookSignature: [] }];
  const answered = { 200: { description: 'Any 2xx within 5 s: delivered. Anything else is retried.' } };
  registry.registerWebhook({
    method: 'post',
    path: 'payout',
    operationId: 'payoutWebhook',
    summary: 'A payout reached its result, or was reversed',
    description: 'The payout result as the API answers it now, then `event` and `sequence` (per payout).',
    security: signedBy,
    request: { headers: signed, body: { required: true, content: json(webhookPayloadSchema) } },
    responses: answered,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'downtime',
    operationId: 'downtimeWebhook',
    summary: 'A sponsor bank went down for a mode, or recovered',
    description:
      'Sent to every merchant with an enabled webhook endpoint when a downtime starts (`downtime.started`) and ' +
      'when it is resolved (`downtime.resolved`). `sequence` rises with each downtime event sent to you: keep the ' +
      'highest applied per bank and mode.',
    security: signedBy,
    request: { headers: signed, body: { required: true, content: json(downtimeWebhookPayloadSchema) } },
    responses: answered,
  });
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/**
 * The OpenAPI 3.1 document of the merchant operations. `serverUrl` is where a client generated from it
 * sends its requests: the origin that served the document (see api-docs-routes.ts); "/" means that origin
 * to tools that resolve it against the document's own URL.
 */
export function buildOpenApiDocument(version: string, serverUrl = '/'): OpenApiDocument {
  const generator = new OpenApiGeneratorV31(buildRegistry().definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Payout gateway merchant API',
      version,
      description: OVERVIEW,
      license: { name: 'Proprietary: for merchants of this gateway', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl, description: 'The server that served this document' }],
    tags: [
      { name: 'Payouts', description: 'Send money from your main wallet.' },
      { name: 'Status lookups', description: 'Find a payout or a pay-in by your TransactionID.' },
      { name: 'Wallet', description: 'Your balance, and the statement of its movements.' },
      { name: 'Bulk payouts', description: 'Many payouts in one request, each an ordinary payout.' },
      { name: 'Beneficiary validation', description: 'Check a beneficiary exists before paying it.' },
      { name: 'Tokens', description: 'Rotate and revoke your own tokens.' },
      { name: 'Webhook signing secret', description: 'Fetch or rotate the secret your webhooks are signed with.' },
      { name: 'Bank downtimes', description: 'Sponsor banks down or degraded now, per payment mode.' },
      { name: 'Events', description: 'Every event your webhooks carry, in order: catch up on what you missed.' },
    ],
  });
}
