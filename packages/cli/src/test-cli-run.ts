import { createPrismaClient } from '@payout/db';
import { createAdminClient } from './admin-client.js';
import { runCli, type RunOptions } from './program.js';

// The CLI as the CLI's own tests run it: in this process, against this test run's database.

/** What one run of the CLI printed, and its exit status. */
export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with `argv`, capturing what it prints; `openQueue` is the payouts queue, for commands that use it;
 * `admin` is the admin listener and the personal credential that commands acting as a person send.
 */
export async function runCliCapturing(
  argv: string[],
  openQueue: RunOptions['openQueue'],
  admin?: { url: string; credential?: string },
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 }),
    openQueue,
    ...(admin && { openAdmin: () => createAdminClient(admin) }),
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}
