import { Command, CommanderError } from 'commander';
import { registerBankCommands } from './commands/bank-commands.js';
import { registerMerchantCommands } from './commands/merchant-commands.js';
import { registerTokenCommands } from './commands/token-commands.js';
import { registerPayoutCommands } from './commands/payout-commands.js';
import { registerPayoutBulkCommand } from './commands/payout-bulk-command.js';
import { registerReconcileCommand } from './commands/reconcile-command.js';
import { registerWalletCommands } from './commands/wallet-commands.js';
import { registerPayinCommands } from './commands/payin-commands.js';
import { registerWebhookCommands } from './commands/webhook-commands.js';
import { registerDiscrepancyCommands } from './commands/discrepancy-commands.js';
import { registerReconCommands } from './commands/recon-commands.js';
import type { CommandContext, SignInSettings } from './context.js';
import type { AdminClient } from './admin-client.js';
import type { Output } from './output.js';
import { CommandFailure, UsageError } from './usage-error.js';
import type { Queue } from 'bullmq';
import type { PrismaClient } from '@payout/db';
import type { WebhookDestinationPolicy } from '@payout/domain';
import type { SecondFactorSettings, StatementBank } from '@payout/use-cases';
import { registerConsoleCommands } from './commands/console-commands.js';
import { registerApprovalCommands } from './commands/approval-commands.js';
import { registerLoginCommands } from './commands/login-commands.js';
import { registerEnrollCommands } from './commands/enroll-commands.js';

export interface RunOptions {
  /** Opens the database on first use, so --help and argument errors need none. */
  openDb: () => PrismaClient;
  /** Opens the payouts queue on first use (only `payout show` needs it); `close` releases its connection. */
  openQueue: () => { queue: Queue; close: () => Promise<void> };
  /** The admin listener with this run's personal credential; commands that act as a person need it. */
  openAdmin?: () => AdminClient;
  /** `login` and `logout`: where to sign in, where the sign-in is kept, how a password is read. */
  signIn?: SignInSettings;
  stuckAfterMs?: number;
  /** `recon statement`: the largest statement file read; 50 MB by default. */
  statementMaxBytes?: number;
  /** `recon statement`: the settlement account a statement must be for; unset, the account is not checked. */
  settlementAccount?: string;
  /** `recon statement`: the sponsor banks (config.banks); unset, one bank whose account is `settlementAccount`. */
  statementBanks?: readonly StatementBank[];
  /** Whether stderr is a terminal, where a long command tells a person how far it has got. */
  stderrIsTerminal?: boolean;
  /** Where `merchant webhook` may register a URL; by default the production rules (https, public addresses). */
  webhookDestinations?: WebhookDestinationPolicy;
  /** Money commands' requests: their lifetime, and self-approval (development only). Default: a day, never. */
  /** The second factor's sealing keys (`console second-factor reseal`, which refuses without them). */
  secondFactor?: SecondFactorSettings;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/**
 * Which commands need the database itself and which act as a person (docs/operations.md, "Security model"):
 * shown under the command list of `pnpm cli --help`.
 */
const WHO_RUNS_WHAT = `
Deployment commands (need DATABASE_URL; run where the database is, outside the four-eyes rule):
  reconcile (and \`pnpm db:migrate\`), the read-only reports: payout show, approval list|show,
  discrepancy list, webhook show|disabled, wallet show, token list, merchant show, recon statement
  (without --apply); setup (a new installation's first approver), break-glass approver (audited, pages),
  console second-factor reseal

Your own enrollment (a new person, or after a reset): enroll --name <you>

Commands that act as a person (sent to the admin listener, ADMIN_URL, with your own credential: sign in
once with \`pnpm cli login --name <you>\`, or set PAYOUT_ADMIN_KEY to a personal API key from /console/keys):
  merchant create|suspend|activate|update|routing|webhook, bank list|pause|drain|resume, token reissue|revoke,
  wallet credit, payout resolve,
  discrepancy resolve, webhook replay|enable, approval approve|reject|cancel (and the other money commands)
The audit log names you (cli:<username>); a money action waits for another approver, signed in as themselves.`;

/** Exit statuses: 0 done, 1 the command could not do it, 2 the command was called wrongly. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** Runs one CLI invocation and returns its exit status. */
export async function runCli(argv: string[], options: RunOptions): Promise<number> {
  const out: Output = { json: argv.includes('--json'), write: options.stdout };
  let db: PrismaClient | undefined;
  let queue: { queue: Queue; close: () => Promise<void> } | undefined;
  let admin: AdminClient | undefined;
  const context = (): CommandContext => ({
    db: () => (db ??= options.openDb()),
    queue: () => (queue ??= options.openQueue()).queue,
    admin: () => {
      if (!options.openAdmin) throw new Error('this run of the CLI has no admin listener');
      return (admin ??= options.openAdmin());
    },
    signIn: () => {
      if (!options.signIn) throw new Error('this run of the CLI cannot sign in');
      return options.signIn;
    },
    stuckAfterMs: options.stuckAfterMs ?? 60_000,
    statementMaxBytes: options.statementMaxBytes ?? 50 * 1024 * 1024,
    ...(options.settlementAccount !== undefined && { settlementAccount: options.settlementAccount }),
    ...(options.statementBanks && { statementBanks: options.statementBanks }),
    progress: { write: options.stderr, terminal: options.stderrIsTerminal ?? false },
    webhookDestinations: options.webhookDestinations ?? { requireHttps: true, allowPrivateAddresses: false },
    out,
    ...(options.secondFactor && { secondFactor: options.secondFactor }),
  });

  const program = new Command('pnpm cli')
    .description('Payout gateway operator commands')
    .addHelpText('after', WHO_RUNS_WHAT)
    .option('--json', 'print JSON for scripts instead of a table')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => options.stdout(s.trimEnd()), writeErr: (s) => options.stderr(s.trimEnd()) });
  registerMerchantCommands(program, context);
  registerTokenCommands(program, context);
  registerWalletCommands(program, context);
  registerPayoutCommands(program, context);
  registerPayoutBulkCommand(program, context);
  registerReconcileCommand(program, context);
  registerPayinCommands(program, context);
  registerWebhookCommands(program, context);
  registerDiscrepancyCommands(program, context);
  registerReconCommands(program, context);
  registerConsoleCommands(program, context);
  registerApprovalCommands(program, context);
  registerLoginCommands(program, context);
  registerEnrollCommands(program, context);
  registerBankCommands(program, context);
  // Subcommands inherit neither exitOverride nor the output streams from their parent.
  const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
  for (const command of program.commands.flatMap(all)) {
    command.exitOverride().configureOutput(program.configureOutput());
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; everything else it raises is a usage mistake.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof UsageError) {
      options.stderr(`error: ${error.message}`);
      return EXIT_USAGE;
    }
    if (error instanceof CommandFailure) {
      if (!error.silent) options.stderr(`error: ${error.message}`);
      return EXIT_FAILED;
    }
    throw error;
  } finally {
    await db?.$disconnect();
    await queue?.close();
  }
}
