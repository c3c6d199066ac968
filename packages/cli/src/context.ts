import type { PrismaClient } from '@payout/db';
import type { Output } from './output.js';

/** What every command gets: the database (opened on first use) and where to print. */
export interface CommandContext {
  db: () => PrismaClient;
  out: Output;
}
