import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { registerStatementCommand } from './recon/statement-command.js';

/**
 * `pnpm cli recon`: the bank's records against our books (docs/reconciliation.md). Each command lives in
 * its own module under recon/.
 */
export function registerReconCommands(program: Command, context: () => CommandContext): void {
  const recon = program
    .command('recon')
    .description("match the bank's records against our books (docs/reconciliation.md)");
  registerStatementCommand(recon, context);
}
