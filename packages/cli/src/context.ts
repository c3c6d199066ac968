import type { Queue } from 'bullmq';
import type { PrismaClient } from '@payout/db';
import type { Output } from './output.js';

/** What every command gets: the database and the payouts queue (each opened on first use) and where to print. */
export interface CommandContext {
  db: () => PrismaClient;
  queue: () => Queue;
  /** Reconcile: how overdue a pending payout may be before it counts as stuck. */
  stuckAfterMs: number;
  out: Output;
}
