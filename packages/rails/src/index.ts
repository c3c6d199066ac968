export {
  RAIL_FAILURE_REASONS,
  isBankReference,
  isRailFailureReason,
  type AccountToValidate,
  type BeneficiaryValidation,
  type PayoutInstruction,
  type RailAdapter,
  type RailAnswer,
  type RailFailureReason,
  type RailStatusAnswer,
  type RailSubmitAnswer,
} from './rail-adapter.js';
export { createHttpRailAdapter, type HttpRailAdapterOptions } from './http-rail-adapter.js';
export { storable } from './storable.js';
