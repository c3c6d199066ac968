export { createRailSim, type RailSim, type RailSimOptions, type RailSimServer } from './rail-sim.js';
export type { BankStats } from './bank-ledger.js';
export type { BankPayout, BankStatus } from './bank-payout.js';
export { StateFileError } from './state-journal.js';
export { FaultSchedule, NO_FAULTS, type BankFaults, type FaultReport } from './fault-schedule.js';
export {
  bankStatementFor,
  istDate,
  renderStatement,
  SETTLEMENT_ACCOUNT,
  settlementAccountOf,
  statementFile,
  STATEMENT_FORMATS,
  type BookedPayout,
  type SettlementAccount,
  type StatementExport,
  type StatementExportFormat,
} from './statement-export.js';
export { isBookedInBulk } from './magic-values.js';
