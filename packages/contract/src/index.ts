// The wire contract (docs/api.md): each body merchants receive, defined once as a zod schema carrying its
// documentation, next to the function that builds it from the domain's values and is typed by it. The
// API answers with these builders, the worker signs webhook bodies built here, and the OpenAPI document
// (apps/api/src/openapi/) is generated from these schemas.
export { DIGITS_1_TO_30, type OnTheWire } from './members.js';
export {
  PAYOUT_RESULT_HTTP_STATUS,
  PAYOUT_RESULT_SCHEMAS,
  payoutResult,
  payoutResultSchemas,
  type ImpsPayoutResult,
  type PayoutResultBody,
  type UpiPayoutResult,
} from './payout-result.js';
export {
  collectionStatusBody,
  collectionStatusSchema,
  mainWalletBody,
  mainWalletSchema,
  payoutStatusBody,
  payoutStatusSchema,
  type CollectionStatusBody,
  type CollectionStatusSource,
  type MainWalletBody,
  type PayoutStatusBody,
} from './lookups.js';
export {
  badBodySchema,
  batchConflictSchema,
  batchNotFoundSchema,
  bulkPayloadTooLargeSchema,
  conflictSchema,
  errorBody,
  errorBodySchema,
  errorSchema,
  internalErrorSchema,
  invalidMidSchema,
  invalidPayoutTypeSchema,
  MESSAGES,
  payloadTooLargeSchema,
  railUnavailableSchema,
  rateLimitedSchema,
  STATUS_TEXT,
  transactionNotFoundSchema,
  unauthorizedSchema,
  unavailableSchema,
  unsupportedMediaTypeSchema,
  validationErrorSchema,
  walletNotFoundSchema,
  type ErrorBody,
} from './errors.js';
export {
  bulkAcceptedBody,
  bulkAcceptedSchema,
  bulkStatusBody,
  bulkStatusSchema,
  type BulkAcceptedBody,
  type BulkBatch,
  type BulkStatusBody,
} from './bulk.js';
export {
  accountVerdictBody,
  accountVerdictSchema,
  upiVerdictBody,
  upiVerdictSchema,
  type AccountVerdictBody,
  type BeneficiaryVerdict,
  type UpiVerdictBody,
} from './beneficiary-validation.js';
export {
  WEBHOOK_EVENTS,
  webhookEvent,
  webhookPayload,
  webhookPayloadSchema,
  type WebhookEvent,
  type WebhookPayload,
} from './webhook-payload.js';
