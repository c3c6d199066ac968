export { formatRupees, parseRupees, rupees, type Paise } from './money.js';
export { ACK_NO_PATTERN, isMid, isTransactionId, newAckNo } from './identifiers.js';
export { JsonNumber, JsonSyntaxError, isJsonNumber, jsonNumber, parseJson, stringifyJson } from './json.js';
export { AppError, isAppError, type ErrorCode, type FieldError } from './errors.js';
export {
  FAILURE_REASON_RETRYABLE,
  FAILURE_REASON_TEXT,
  HELD_MESSAGE,
  IN_FLIGHT_STATES,
  isRailFailureReason,
  RAIL_FAILURE_REASONS,
  PAYOUT_STATES,
  canTransition,
  isTerminal,
  payoutMessage,
  QUEUED_MESSAGE,
  statesAllowedBefore,
  type FailureReason,
  type PayoutMode,
  type PayoutState,
  type PayoutStatus,
  type RailFailureReason,
} from './payout-state.js';
export { LEDGER_ENTRY_KINDS, ledgerLegs, walletDelta, type LedgerEntryKind } from './ledger.js';
export {
  ledgerExpectations,
  PAYOUT_TRANSITIONS,
  POSTING_ENTRY,
  POSTINGS,
  postingsCarried,
  postingsOf,
  statesBefore,
  type LedgerExpectation,
  type PayoutTransition,
  type Posting,
  type TransitionCause,
  type TransitionWebhook,
} from './payout-transitions.js';
export {
  digestMatchesAny,
  hashToken,
  MAX_ACTIVE_MERCHANT_TOKENS,
  newApiToken,
  newSecretToken,
  tokenDisplayPrefix,
  tokenMatchesAny,
} from './credentials.js';
export {
  API_KEY_DAYS,
  claimsPersonalCredential,
  credentialExpiry,
  DEFAULT_SIGN_IN_TTL_MS,
  isPersonalCredential,
  MAX_SIGN_IN_TTL_MS,
  newPersonalCredential,
  PERSONAL_CREDENTIAL_KINDS,
  personalCredentialPrefix,
  type PersonalCredentialKind,
} from './personal-credentials.js';
export { isSameInstruction, MINIMUM_PAYOUT_PAISE, MODE_CEILING_PAISE } from './payout-instruction.js';
export {
  IST_OFFSET_MS,
  istMinute,
  SCHEDULE_MAX_LEAD_MS,
  SCHEDULE_MIN_LEAD_MS,
  SCHEDULED_MESSAGE_PATTERN,
  SCHEDULED_MESSAGE_PREFIX,
  scheduledMessage,
  scheduleWindowProblem,
} from './payout-schedule.js';
export type { Payout, PayoutForWork, PayoutInstructionRecord, PayoutRequest, PayoutSummary } from './payout.js';
export {
  inquiryDelayMs,
  nextStep,
  type Circumstances,
  type InquirySchedule,
  type InquirySchedules,
  type RailAnswer,
} from './rail-outcome.js';
export { bankriff, isHeld, payoutResultMessage, type PayoutResultSource } from './payout-result.js';
export {
  checkPayinSignature,
  newWebhookSecret,
  PAYIN_SIGNATURE_HEADER,
  payinSignature,
  WEBHOOK_SIGNATURE_HEADER,
  webhookSecretDisplayPrefix,
  webhookSignature,
} from './signatures.js';
export { isForbiddenWebhookAddress, webhookUrlProblem, type WebhookDestinationPolicy } from './webhook-destination.js';
export {
  decideResolution,
  describeRailAnswer,
  isSettlementFailureReason,
  overrideAtApproval,
  RESOLUTION_FAILURE_REASONS,
  type ResolutionDecision,
  type ResolutionRequest,
  type SettlementFailureReason,
} from './manual-resolution.js';
export {
  chosenPasswordProblem,
  DECOY_PASSWORD_HASH,
  hashPassword,
  MIN_CHOSEN_PASSWORD_LENGTH,
  needsRehash,
  newPassword,
  verifyPassword,
} from './passwords.js';
export {
  looksLikeRecoveryCode,
  looksLikeTotpCode,
  newRecoveryCodes,
  newTotpSeed,
  openSeed,
  RECOVERY_CODE_COUNT,
  recoveryCodeDigest,
  sealedUnderOldKey,
  sealingKeyId,
  sealSeed,
  totpCode,
  totpStepAt,
  totpStepProved,
  totpUri,
  type SealingKeys,
} from './second-factor.js';
export {
  ENROLLMENT_SECRET_PATTERN,
  ENROLLMENT_TTL_MS,
  enrollmentDigest,
  enrollmentFingerprint,
  newEnrollmentSecret,
  readFingerprint,
} from './enrollment.js';
export {
  CONSOLE_ROLES,
  CONSOLE_USERNAME_PATTERN,
  may,
  mayAct,
  MIN_APPROVERS,
  removingApproverProblem,
  type ConsolePermission,
  type ConsoleRole,
} from './console-roles.js';
export {
  ASSIGNABLE_MERCHANT_ROLES,
  MERCHANT_USER_EMAIL_PATTERN,
  MERCHANT_USER_ROLES,
  merchantMay,
  merchantPermissionsOf,
  merchantUserEmail,
  type MerchantPermission,
  type MerchantUserRole,
} from './merchant-team.js';
export { bulkCounts, MAX_BULK_ITEMS, type BulkItemStanding } from './bulk-batch.js';
export {
  DEFAULT_APPROVAL_TTL_MS,
  approvalStateAt,
  decideOnApproval,
  isPeopleAction,
  PEOPLE_ACTIONS,
  type ApprovalAction,
  type ApprovalDecision,
  type ApprovalState,
} from './approvals.js';
export {
  clientAllowanceKey,
  formatNetwork,
  inNetwork,
  isPubliclyRoutable,
  parseIpAddress,
  readCidrText,
  type CidrReading,
  type IpAddress,
  type IpNetwork,
} from './ip-address.js';
export {
  addressAllowed,
  MAX_ALLOWLIST_ENTRIES,
  readAllowlist,
  readCidr,
  type AllowlistReading,
} from './ip-allowlist.js';
export {
  BANK_CONTROL_STATES,
  BANK_OUTCOMES,
  DOWNTIME_STATUSES,
  ROUTING_REASONS,
  type BankControlState,
  type BankDowntime,
  type BankName,
  type BankOutcome,
  type DowntimeStatus,
  type RoutingDecision,
  type RoutingReason,
} from './banks.js';
export {
  bankStep,
  mayLeaveBank,
  needsExchanges,
  type BankExchange,
  type BankStanding,
  type BankStep,
  type Handoff,
} from './bank-handoff.js';
export {
  assessBankHealth,
  bankOutcomeOf,
  countOutcome,
  DEFAULT_ROUTING_SETTINGS,
  describeRouting,
  healthKey,
  isServing,
  mayCallBank,
  NO_OUTCOMES,
  NO_RUN,
  recentRun,
  routePayout,
  type BankHealth,
  type BankLandscape,
  type OutcomeCounts,
  type RecentRun,
  type RoutableBank,
  type Routing,
  type RoutingRequest,
  type RoutingSettings,
} from './bank-routing.js';
