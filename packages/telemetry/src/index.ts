export { createLogger, maskAccount, REDACTED_PATHS, type Logger } from './logger.js';
export {
  createMetrics,
  createOperationsMetrics,
  createRegistry,
  createRoutingMetrics,
  METRIC_NAMES,
  type OperationsMetrics,
  type RoutingMetrics,
  type ServiceMetrics,
} from './metrics.js';
export { probeDependency } from './health-check.js';
