export { formatRupees, parseRupees, rupees, type Paise } from './money.js';
export {
  ACK_NO_PATTERN,
  MID_PATTERN,
  TRANSACTION_ID_PATTERN,
  isMid,
  isTransactionId,
  newAckNo,
} from './identifiers.js';
export { JsonNumber, JsonSyntaxError, isJsonNumber, jsonNumber, parseJson, stringifyJson } from './json.js';
export { AppError, isAppError, type AppErrorOptions, type ErrorCode, type FieldError } from './errors.js';
export {
  FAILURE_REASON_TEXT,
  IN_FLIGHT_STATES,
  PAYOUT_STATES,
  TERMINAL_STATES,
  canTransition,
  externalStatus,
  isTerminal,
  payoutMessage,
  statesAllowedBefore,
  type FailureReason,
  type PayoutMode,
  type PayoutState,
  type PayoutStatus,
} from './payout-state.js';
export { ledgerLegs, walletDelta, type LedgerAccount, type LedgerEntryKind, type LedgerLeg } from './ledger.js';
export { hashToken, newApiToken, tokenDisplayPrefix, tokenMatchesAny } from './credentials.js';
export {
  isSameInstruction,
  MINIMUM_PAYOUT_PAISE,
  MODE_CEILING_PAISE,
  type InstructionIdentity,
} from './payout-instruction.js';
export { inquiryDelayMs, nextStep, type InquirySchedule, type NextStep, type RailVerdict } from './rail-outcome.js';
export { PAYOUT_RESULT_HTTP_STATUS, payoutResult, type PayoutResultSource } from './payout-result.js';
export {
  isValidPayinSignature,
  newWebhookSecret,
  PAYIN_SIGNATURE_HEADER,
  payinSignature,
  WEBHOOK_SIGNATURE_HEADER,
  webhookSecretDisplayPrefix,
  webhookSignature,
} from './signatures.js';
