export { createLogger, maskAccount, REDACTED_PATHS, type Logger } from './logger.js';
