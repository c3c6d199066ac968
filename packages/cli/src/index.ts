export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli, type RunOptions } from './program.js';
export { AdminRefusal, createAdminClient, readSavedCredential, type AdminClient } from './admin-client.js';
