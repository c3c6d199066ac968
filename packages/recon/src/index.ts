export {
  formatStatement,
  parseStatement,
  STATEMENT_HEADER,
  type ParsedStatement,
  type StatementLine,
  type StatementLineType,
} from './statement-csv.js';
export {
  breakOf,
  countItems,
  inApplyingOrder,
  matchStatement,
  MAX_SUGGESTIONS,
  planActions,
  RECON_CLASSES,
  type BookPayout,
  type MatchableLine,
  type PlannedStatementAction,
  type ReconAction,
  type ReconBreak,
  type ReconClass,
  type ReconCounts,
  type ReconItem,
} from './statement-matcher.js';
export {
  acceptStatementFile,
  checkStatementFile,
  readStatementFile,
  toStatementLines,
  type BankEntry,
  type BankEntryClass,
  type BankEntryType,
  type BankStatement,
  type FileCheck,
  type ReadResult,
  type SetAside,
  type StatementFile,
  type StatementFileOptions,
  type StatementFormat,
} from './statement-file.js';
export { BankCsvProfile, parseBankProfile } from './formats/bank-csv.js';
export { detectLayout, type StatementLayout } from './formats/detect.js';
export { renderCamt053 } from './formats/render-camt053.js';
export { renderMt940, type RenderableStatement } from './formats/render-mt940.js';
