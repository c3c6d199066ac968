// The use cases, shared by the support console, the admin JSON API and the CLI: each checks,
// acts and writes its audit log entry (docs/operations.md, "Support console"). The money actions are
// planned by one person and run on a second person's approval ("Approvals").
export type { PayoutKey } from './payout-key.js';
export { railOfPayout, type PayoutRails } from './payout-bank.js';
export { actorOf, type Person } from './approvals/person.js';
export type { ApprovalDeps, ApprovalSettings, PlannedRequest } from './approvals/money-action.js';
export { approvalJson } from './approvals/approval-json.js';
export {
  approveRequest,
  cancelRequest,
  rejectRequest,
  requestApproval,
  requestPeopleChange,
  type DecideOutcome,
  type RequestApprovalOutcome,
  type RequestPeopleChangeOutcome,
} from './approvals/approval-flow.js';
export {
  planManualResolution,
  recheckOverride,
  type OverrideRecheck,
  railSummary,
  type PlanManualResolutionInput,
  type PlanManualResolutionOutcome,
} from './resolve-manual-review.js';
export { replayWebhook, type ReplayWebhookOutcome } from './replay-webhook.js';
export {
  findMerchantDeliveryPayout,
  listMerchantWebhookDeliveries,
  type MerchantWebhookDelivery,
} from './merchant-webhook-deliveries.js';
export { enableWebhookEndpointAction, type EnableWebhookEndpointOutcome } from './enable-webhook-endpoint.js';
export { requeueInquiry, type RequeueInquiryOutcome } from './requeue-inquiry.js';
export { planWalletCredit, type PlanWalletCreditOutcome } from './credit-wallet.js';
export { planTokenIssue, revokeToken, type PlanTokenIssueOutcome, type RevokeTokenOutcome } from './merchant-tokens.js';
export {
  planMerchantCreate,
  type PlanMerchantCreateInput,
  type PlanMerchantCreateOutcome,
} from './merchant-onboarding.js';
export {
  MERCHANT_TOKEN_DIGEST,
  MERCHANT_TOKEN_PREFIX,
  readMerchantMadeToken,
  type MerchantMadeToken,
} from './merchant-made-token.js';
export {
  rotateOwnWebhookSecret,
  setWebhookUrlAction,
  type RotateOwnWebhookSecretOutcome,
  type SetWebhookUrlOutcome,
} from './merchant-webhook.js';
export {
  MERCHANT_LIMIT_CEILING,
  setMerchantStatusAction,
  updateQueueSettingsAction,
  type SetMerchantStatusOutcome,
} from './merchants/merchant-admin.js';
export { merchantJson, webhookEndpointJson } from './merchants/merchant-json.js';
export { webhookDestinationProblem } from './merchants/webhook-destination.js';
export {
  revokeOwnToken,
  rotateOwnToken,
  type RevokeOwnTokenOutcome,
  type RotateOwnTokenOutcome,
  type TokenHolder,
} from './merchant-own-tokens.js';
export {
  revokeTokenByMerchantUser,
  rotateTokenByMerchantUser,
  setAllowlistByMerchantUser,
  setWebhookUrlByMerchantUser,
  type MerchantUserChange,
  type RevokeTokenByMerchantUserOutcome,
  type SetAllowlistByMerchantUserOutcome,
  type SetWebhookUrlByMerchantUserOutcome,
} from './merchant-user-access.js';
export { planIpAllowlist, type PlanIpAllowlistOutcome } from './merchant-ip-allowlist.js';
export { resolveDiscrepancyAction, type ResolveDiscrepancyOutcome } from './resolve-discrepancy.js';
export { planStatementApplication, type PlanStatementApplicationOutcome } from './apply-statement.js';
export {
  previewOf,
  previewStatement,
  reconcileStatement,
  type StatementRunPreview,
  type StatementRunReport,
  type StatementRunRequest,
} from './statement-reconciliation.js';
export { applyStatementActions, type StatementApplyOutcome, type StatementApplyRequest } from './statement-actions.js';
export {
  readStatementSources,
  reconcileStatementRun,
  statementDigest,
  statementFileJson,
  statementRunJson,
  statementRunName,
  textSource,
  type ReadStatementInput,
  type ReadStatementOutcome,
  type ReconcileStatementRunInput,
  type ReconcileStatementRunOutcome,
  type StatementFileJson,
  type StatementBank,
  type StatementSettings,
} from './reconcile-statement-run.js';
export {
  matchInDatabase,
  STATEMENT_MEMORY_BUDGET_MB,
  type MatchedStatement,
  type StatementProgress,
} from './statement-matching.js';
export { directAccepter, type PayoutAccepter } from './intake/payout-accepter.js';
export { CoalescingAccepter, type CoalescingOptions } from './intake/coalescing-accepter.js';
export { cancelPayout, type CancelPayoutDeps } from './intake/cancel-payout.js';
export {
  createPayout,
  type CreatePayoutDeps,
  type CreatePayoutInput,
  type IntakeMerchant,
  type IntakeLog,
} from './intake/create-payout.js';
export {
  findBulkBatchState,
  submitBulkPayout,
  type BulkBatchState,
  type BulkItemState,
  type SubmitBulkDeps,
  type SubmitBulkInput,
} from './intake/submit-bulk-payout.js';
export { BULK_CSV_COLUMNS, BulkCsvRefused, bulkCsvBatchId, judgeBulkCsvLines, readBulkCsv } from './intake/bulk-csv.js';
export {
  previewMerchantBulk,
  submitPreviewedBulk,
  type MerchantBulkPreview,
  type MerchantBulkPreviewLine,
  type MerchantBulkPreviewOutcome,
  type SubmitPreviewedBulkOutcome,
} from './intake/merchant-bulk-preview.js';
export { breakSaysMoneyIsMissing } from '@payout/recon';
export {
  planOperatorBulkBatch,
  type PlanOperatorBulkInput,
  type PlanOperatorBulkOutcome,
} from './intake/operator-bulk-batch.js';
export {
  candidatesOf,
  decideStatementBreak,
  matchStatementLine,
  type DecideBreakOutcome,
  type MatchLineOutcome,
  type StatementBreakKey,
} from './match-statement-line.js';
export {
  disableUser,
  planPasswordReset,
  planRoleChange,
  planUserAdd,
  type DisableUserOutcome,
  type PlanPeopleChangeOutcome,
} from './people-changes.js';
export {
  enrollmentStanding,
  finishEnrollment,
  offerSecondFactor,
  openOwnEnrollment,
  type BeginEnrollmentOutcome,
  type EnrollmentStanding,
  type FinishEnrollmentOutcome,
  type OpenEnrollmentOutcome,
} from './people/enrollment.js';
export {
  FAILURE_WINDOW_MS,
  MAX_SECOND_FACTOR_FAILURES,
  proveSecondFactor,
  secondFactorRefusal,
  signInNeedsSecondFactor,
  type SecondFactorProof,
  type SecondFactorSettings,
} from './people/second-factor.js';
export {
  breakGlassApprover,
  setUpFirstApprover,
  type BreakGlassOutcome,
  type FirstApproverOutcome,
} from './people/setup.js';
export {
  BANK_CONTROL_ACTIONS,
  bankJson,
  bankOverview,
  setBankControlAction,
  type BankControlAction,
  type BankOverview,
  type ConfiguredBank,
  type SetBankControlOutcome,
} from './banks/bank-controls.js';
export {
  DOWNTIME_HOLD_SECONDS,
  updateRoutingSettingsAction,
  type UpdateRoutingSettingsOutcome,
} from './merchants/routing-settings.js';
// A merchant's own people on the dashboard (docs/dashboard.md): enrollment, second factor, the team.
export {
  finishMerchantEnrollment,
  merchantEnrollmentStanding,
  offerMerchantSecondFactor,
  openMerchantUserEnrollment,
  proveMerchantSecondFactor,
  type FinishMerchantEnrollmentOutcome,
  type MerchantEnrollmentStanding,
  type OfferMerchantSecondFactorOutcome,
  type OpenMerchantEnrollmentOutcome,
} from './merchant-people/merchant-enrollment.js';
export {
  addTeamMember,
  changeTeamMemberRole,
  reEnrollTeamMember,
  setTeamMemberDisabled,
  type ReEnrollOutcome,
  type AddTeamMemberOutcome,
  type TeamChangeActor,
  type TeamChangeOutcome,
} from './merchant-people/merchant-team.js';
export {
  planOwnerEnroll,
  staffDisableMerchantUser,
  type PlanOwnerEnrollOutcome,
} from './merchant-people/merchant-owner.js';
