export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli, type RunOptions } from './program.js';
