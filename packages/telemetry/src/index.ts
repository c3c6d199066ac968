export { createLogger, maskAccount, REDACTED_PATHS, type Logger } from './logger.js';
export { createMetrics, type ServiceMetrics } from './metrics.js';
export { probeDependency } from './health-check.js';
