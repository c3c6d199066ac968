export { createLogger, maskAccount, REDACTED_PATHS, type Logger } from './logger.js';
export {
  createMetrics,
  createOperationsMetrics,
  createRegistry,
  METRIC_NAMES,
  type OperationsMetrics,
  type ServiceMetrics,
} from './metrics.js';
export { probeDependency } from './health-check.js';
