export {
  createPrismaClient,
  withConnection,
  type DatabaseOptions,
  type PrismaClient,
  type PrismaClientOrTransaction,
  type Transaction,
} from './client.js';
export { migrate, MigrationError, type MigrateOptions, type MigrateResult } from './migrate/migrate.js';
export { defaultMigrationsDir } from './migrate/migrations-dir.js';
export {
  defaultSqlFunctionsDir,
  functionMigrationSql,
  readSqlFunctions,
  type SqlFunctionSource,
} from './migrate/sql-functions.js';
export * from './repositories/merchant-repository.js';
export * from './repositories/merchant-settings.js';
export * from './repositories/banks.js';
export * from './repositories/payout-queue.js';
export * from './repositories/wallet-repository.js';
export * from './repositories/payout-repository.js';
export * from './repositories/payout-cancel.js';
// The views of a payout the repositories take and give are the domain's (packages/domain/src/payout.ts).
export type { PayoutForWork, PayoutInstructionRecord, PayoutSummary } from '@payout/domain';
export * from './repositories/collection-repository.js';
export { isDatabaseUnavailable, isRetryableTransactionError } from './database-errors.js';
export * from './repositories/payout-transitions.js';
export * from './repositories/payout-banks.js';
export * from './repositories/ledger-posting.js';
export * from './repositories/discrepancy-repository.js';
export {
  INVARIANT_NAMES,
  checkInvariants,
  type InvariantCheck,
  type InvariantCheckOptions,
  type InvariantReport,
} from './invariant-check.js';
export { findPayoutStory, findPayoutStoryByAckNo, type PayoutStory } from './repositories/payout-story.js';
export * from './repositories/console-user-repository.js';
export * from './repositories/merchant-user-sessions.js';
export * from './repositories/merchant-user-repository.js';
export * from './repositories/merchant-audit.js';
export * from './repositories/personal-credential-repository.js';
export * from './repositories/second-factor-repository.js';
export * from './repositories/enrollment-repository.js';
export * from './repositories/operator-action-repository.js';
export * from './repositories/approval-repository.js';
// The support console's reads, one module per page (docs/operations.md, "Support console").
export {
  listPayouts,
  searchPayouts,
  type PayoutListFilter,
  type PayoutListRow,
  type PayoutSearch,
} from './repositories/console/payout-lists.js';
export { payoutsForStatement } from './repositories/console/merchant-statement-rows.js';
export { listFailedWebhookDeliveries, type FailedWebhookRow } from './repositories/console/failed-webhooks.js';
export { findMerchantOverview, type MerchantOverview } from './repositories/console/merchant-overview.js';
// The merchant dashboard's reads beyond the merchant API's own (docs/dashboard.md).
export { findPayoutDescription } from './repositories/dashboard/payout-description.js';
export { listPastBankDowntimes, type PastBankDowntime } from './repositories/dashboard/past-downtimes.js';
export * from './repositories/statement-breaks.js';
export {
  BANK_TIME_ZONE,
  findEarlierStatementRuns,
  insertStatementRun,
  lockPayoutStates,
  lockStatementRun,
  markStatementRunApplied,
  type NewStatementRun,
  type StoredStatementAction,
} from './repositories/statement-runs.js';
// What a statement run plans and applyStatementActions (@payout/use-cases) carries out (packages/recon/src/statement-matcher.ts).
export type { PlannedStatementAction } from '@payout/recon';
export {
  recordCollection,
  type CollectionConflict,
  type CollectionOutcome,
  type CollectionReport,
  type RecordedCollection,
} from './repositories/collection-ingestion.js';
export * from './repositories/webhook-endpoint-repository.js';
export * from './repositories/webhook-delivery-repository.js';
export { eventPageStatement, findEventPage, type EventPageQuery, type FeedEvent } from './repositories/event-feed.js';
export { withAdvisoryLock } from './advisory-lock.js';
export * from './repositories/operations-gauges.js';
export { lookUpCollection, lookUpPayout, lookUpWallet, type LookupDatabases } from './read-routing.js';
export {
  findPayoutPage,
  payoutPageStatement,
  type PayoutPage,
  type PayoutPageFilters,
  type PayoutPageItem,
  type PayoutPageQuery,
} from './repositories/payout-list.js';
// The merchant's statement of its main wallet (docs/api.md, "Statement").
export {
  findStatementPage,
  openStatement,
  type StatementEntryRow,
  type StatementPage,
  type StatementPageQuery,
} from './repositories/wallet-statement.js';
export * from './repositories/bulk-batch-repository.js';
export * from './repositories/idempotency-keys.js';
export { NextTurnFlush } from './next-turn-flush.js';
export { StatementCoalescer, type CoalescingLimits, type Pending } from './statement-coalescer.js';
export * from './repositories/day-at-a-glance.js';
export * from './repositories/statement-identity.js';
export * from './repositories/statement-matching.js';
