export { PayoutClient, type CallOptions, type PayoutClientOptions, type WaitOptions } from './payout-client.js';
export { DEFAULT_RETRY, type RetryPolicy } from './transport.js';
export { PayoutClientError, type PayoutClientErrorCode } from './errors.js';
export {
  verifyWebhook,
  type HeadersLike,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookRefusal,
  type WebhookVerification,
} from './webhooks.js';
export { parseJsonLossless, JsonParseError, type JsonObject, type JsonValue } from './lossless-json.js';
export { paiseFromRupees, rupeesFromPaise } from './money.js';
export { newMerchantToken, tokenDigest, type MerchantToken } from './merchant-token.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/openapi.js';
