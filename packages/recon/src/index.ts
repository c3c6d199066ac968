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
  matchStatement,
  RECON_CLASSES,
  type BookPayout,
  type ReconAction,
  type ReconBreak,
  type ReconClass,
  type ReconCounts,
  type ReconItem,
} from './statement-matcher.js';
