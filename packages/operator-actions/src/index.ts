// The operator's use cases, shared by the support console and the CLI: each checks, acts and writes its
// audit log entry (docs/operations.md, "Support console").
export type { PayoutKey } from './payout-key.js';
export {
  resolveManualReview,
  type ResolveManualReviewInput,
  type ResolveManualReviewOutcome,
} from './resolve-manual-review.js';
export { queueFirstAttempt, replayWebhook, type ReplayWebhookOutcome } from './replay-webhook.js';
export { enableWebhookEndpointAction, type EnableWebhookEndpointOutcome } from './enable-webhook-endpoint.js';
export { requeueInquiry, type RequeueInquiryOutcome } from './requeue-inquiry.js';
export { creditWallet, type CreditWalletOutcome } from './credit-wallet.js';
export { revokeToken, rotateToken, type RevokeTokenOutcome, type RotateTokenOutcome } from './merchant-tokens.js';
