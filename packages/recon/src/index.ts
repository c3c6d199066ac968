export {
  formatStatement,
  parseStatement,
  STATEMENT_HEADER,
  type ParsedStatement,
  type StatementLine,
  type StatementLineType,
} from './statement-csv.js';
export {
  breakSaysMoneyIsMissing,
  matchLine,
  matchStatement,
  missingAtBank,
  reversedMissingAtBank,
  MONEY_MISSING_BREAKS,
  MAX_SUGGESTIONS,
  narrationTokens,
  RECON_CLASSES,
  type BookPayout,
  type Books,
  type LineState,
  type MatchableLine,
  type ReconAction,
  type ReconClass,
  type ReconItem,
} from './statement-matcher.js';
export {
  breakOf,
  countItems,
  inApplyingOrder,
  linePlace,
  planActions,
  type PlannedStatementAction,
  type ReconBreak,
  type ReconCounts,
} from './statement-run.js';
export {
  acceptStatementFile,
  checkStatementFile,
  checkStatementSummaries,
  notVouchedFor,
  readStatementFile,
  sameAccount,
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
  type StatementHead,
  type StatementSummary,
} from './statement-file.js';
export { acceptStatementFiles, checkStatementRun, type StatementFiles, type StatementText } from './statement-files.js';
export { daysBetween, filesOfDays, statementDays, statementFilesOfDays } from './statement-days.js';
export {
  LAYOUT_HEAD_CHARS,
  oneAccountOf,
  readStatementRun,
  statementDaysOf,
  statementLayoutOf,
  type StatementLineSink,
  type StatementSource,
  type StreamedStatementRun,
} from './statement-stream.js';
export { BankCsvProfile, parseBankProfile } from './formats/bank-csv.js';
export { detectLayout, type StatementLayout } from './formats/detect.js';
export { renderCamt053 } from './formats/render-camt053.js';
export { renderMt940, type RenderableStatement } from './formats/render-mt940.js';
