export {
  RAIL_FAILURE_REASONS,
  type AccountToValidate,
  type BeneficiaryValidation,
  type PayoutInstruction,
  type RailAdapter,
  type RailAnswer,
  type RailFailureReason,
  type RailStatusAnswer,
  type RailSubmitAnswer,
} from './rail-adapter.js';
export { createHttpRailAdapter } from './http-rail-adapter.js';
export {
  createBankRails,
  createRailAdapter,
  type BankRails,
  type RailBank,
  type RailLimits,
  type RailSettings,
} from './rail-factory.js';
