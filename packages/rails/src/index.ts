export {
  RAIL_FAILURE_REASONS,
  isRailFailureReason,
  type PayoutInstruction,
  type RailAdapter,
  type RailAnswer,
  type RailFailureReason,
  type RailSubmitAnswer,
} from './rail-adapter.js';
export { createHttpRailAdapter, type HttpRailAdapterOptions } from './http-rail-adapter.js';
