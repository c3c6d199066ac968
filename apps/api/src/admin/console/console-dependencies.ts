import type { Queue } from 'bullmq';
import type { PrismaClient } from '@payout/db';
import type { PayoutProducer } from '@payout/queue';
import type { ApprovalSettings } from '@payout/use-cases';
import type { BankSettings } from '@payout/config';
import type { BankRails } from '@payout/rails';
import type { consoleAuthorization } from './console-authorization.js';
import type { SignInLimiter } from './sign-in-limiter.js';

/** What the console's routes need, built once by api-server.ts (or a test). */
export interface ConsoleDependencies {
  db: PrismaClient;
  payoutQueue: Queue;
  /** Queues the jobs of the payouts an approved bulk batch accepted, after its commit. */
  producer: PayoutProducer;
  webhookQueue: Queue;
  /** Every configured bank's adapter (docs/banks.md): a resolution asks the payout's own bank. */
  rails: BankRails<BankSettings>;
  /** The configured banks (`BANKS`): the day page shows each, and only these may be held or pinned to. */
  banks: readonly BankSettings[];
  signIn: SignInLimiter;
  sessionTtlMs: number;
  /** How long a money action's request waits, and whether (development only) its maker may approve it. */
  approvals: ApprovalSettings;
}

/** The one authorization check every page and action is wrapped in (console-authorization.tsx). */
export type Allow = ReturnType<typeof consoleAuthorization>['allow'];

/** What each page and action module registers its routes with: the console's services and `allow`. */
export interface ConsoleContext {
  deps: ConsoleDependencies;
  allow: Allow;
}
