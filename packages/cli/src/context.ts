import type { Queue } from 'bullmq';
import type { PrismaClient } from '@payout/db';
import type { WebhookDestinationPolicy } from '@payout/domain';
import type { SecondFactorSettings, StatementBank } from '@payout/use-cases';
import type { AdminClient } from './admin-client.js';
import type { Output } from './output.js';

/** What `login` and `logout` need: where to sign in, where the sign-in is kept, how a password is read. */
export interface SignInSettings {
  /** The admin listener to sign in at (ADMIN_URL). */
  adminUrl: string;
  /** Where the sign-in is kept, mode 0600 (PAYOUT_CLI_CREDENTIALS). */
  credentialFile: string;
  /** Reads the password typed at the terminal, without echo. */
  readPassword: (prompt: string) => Promise<string>;
  /** Reads everything piped to stdin (`--password-stdin`). */
  readStdin: () => Promise<string>;
  /** Whether a person is at a terminal to be asked (for a code, a password) rather than told to pass it. */
  terminal: boolean;
}

/**
 * What every command gets: the database and the payouts queue (each opened on first use), the admin
 * listener as the person whose credential the run holds, and where to print.
 */
export interface CommandContext {
  db: () => PrismaClient;
  queue: () => Queue;
  /** The admin listener, as the person whose credential this run holds: every command that acts as a person goes here. */
  admin: () => AdminClient;
  /** `login` and `logout`: the sign-in settings of this run. */
  signIn: () => SignInSettings;
  /** Reconcile: how overdue a pending payout may be before it counts as stuck. */
  stuckAfterMs: number;
  /** `recon statement`: the largest statement file read (STATEMENT_MAX_BYTES). */
  statementMaxBytes: number;
  /** `recon statement`: the account a statement must be for (STATEMENT_SETTLEMENT_ACCOUNT); unset, it is only reported. */
  settlementAccount?: string;
  /** `recon statement`: the sponsor banks (config.banks), each statement matched against its own bank's payouts. */
  statementBanks?: readonly StatementBank[];
  /** Where a long command tells a person how far it has got (stderr), and whether that is a terminal. */
  progress?: { write: (line: string) => void; terminal: boolean };
  out: Output;
  /** How long a money command's request waits, and whether (development only) its maker may approve it. */
  /** The second factor's sealing keys, for `console second-factor reseal`; unset when SECOND_FACTOR_KEY is. */
  secondFactor?: SecondFactorSettings;
  /** Where `merchant webhook` may register a URL (from NODE_ENV and WEBHOOK_ALLOW_PRIVATE_ADDRESSES). */
  webhookDestinations: WebhookDestinationPolicy;
}
