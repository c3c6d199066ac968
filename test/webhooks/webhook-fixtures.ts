import { Queue } from 'bullmq';
import {
  acceptPayouts,
  createPrismaClient,
  registerWebhookEndpoint,
  settleFailure,
  settleSuccess,
  transitionPayout,
  type PayoutSummary,
  type PrismaClient,
  type SettlementResult,
} from '@payout/db';
import { cliConfigSchema, loadConfig, webhookDestinationPolicy } from '@payout/config';
import {
  newAckNo,
  newWebhookSecret,
  webhookSecretDisplayPrefix,
  type PayoutMode,
  type WebhookDestinationPolicy,
} from '@payout/domain';
import { createAdminClient, EXIT_OK, runCli } from '@payout/cli';
import { personAtTerminal } from '../support/approvals.js';
import { createProducerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { newTransactionId } from '../support/api.js';
import type { TestMerchant } from '../support/factories.js';

/** Registers a webhook endpoint for the merchant, as `merchant webhook` does, and returns its secret. */
export async function registerEndpoint(db: PrismaClient, merchant: TestMerchant, url: string): Promise<string> {
  const secret = newWebhookSecret();
  await registerWebhookEndpoint(
    db,
    merchant.merchant.id,
    { url, secret, secretPrefix: webhookSecretDisplayPrefix(secret) },
    24 * 60 * 60 * 1000,
  );
  return secret;
}

/** A payout accepted through the real accept statement (balance reserved), and claimed for the rail. */
export async function payoutAtTheRail(
  db: PrismaClient,
  merchant: TestMerchant,
  options: { mode?: PayoutMode; amountPaise?: bigint; transactionId?: string } = {},
): Promise<PayoutSummary> {
  const mode = options.mode ?? 'UPI';
  const [accepted] = await acceptPayouts(db, [
    {
      merchantId: merchant.merchant.id,
      transactionId: options.transactionId ?? newTransactionId(),
      mode,
      amountPaise: options.amountPaise ?? 10100n,
      ackNo: newAckNo(),
      account: mode === 'UPI' ? 'asha.kumar@okhdfc' : '123456789012',
      ifsc: mode === 'UPI' ? null : 'HDFC0001234',
      name: 'Asha Kumar',
      bankName: null,
      mobile: null,
      email: null,
      description: null,
      scheduledAt: null,
    },
  ]);
  if (accepted?.outcome !== 'accepted') throw new Error(`payout not accepted: ${accepted?.outcome}`);
  const moved = await transitionPayout(
    db,
    accepted.payout.id,
    'SUBMITTING',
    { nextCheckAt: new Date(Date.now() + 60_000), incrementSubmitAttempts: true },
    { reason: 'test: sent to the rail', actor: 'test' },
  );
  if (!moved.moved) throw new Error('payout could not be claimed');
  return accepted.payout;
}

/** Settles a payout at the rail through the worker's settlement statements. */
export function settle(
  db: PrismaClient,
  payout: PayoutSummary,
  outcome: 'SUCCESS' | 'FAILED',
): Promise<SettlementResult> {
  const note = { reason: `test: rail said ${outcome}`, actor: 'test' };
  return outcome === 'SUCCESS'
    ? settleSuccess(db, payout.id, `UTR${payout.ackNo.slice(-9)}`, note)
    : settleFailure(db, payout.id, 'DECLINED_BY_BENEFICIARY_BANK', note);
}

let cliAdmin: { url: string; credential?: string } | undefined;
/**
 * Where `cli` sends the commands that act as a person (the admin listener of the test file's API) and whose
 * personal credential it sends by default (docs/operations.md, "Security model").
 */
export function setCliAdmin(url: string, credential?: string): void {
  cliAdmin = { url, ...(credential !== undefined && { credential }) };
}

/** Runs one `pnpm cli …` in-process against this test file's database and queue prefix, as {@link setCliAdmin}'s person. */
export function cli(...argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return cliUnder(webhookDestinationPolicy(loadConfig(cliConfigSchema)), ...argv);
}

/** {@link cli} as the person whose credential is given (undefined: no one is signed in). */
export function cliAs(
  credential: string | undefined,
  ...argv: string[]
): Promise<{ status: number; stdout: string; stderr: string }> {
  return runFixtureCli(webhookDestinationPolicy(loadConfig(cliConfigSchema)), argv, credential);
}

/** {@link cli}, with `merchant webhook` judging URLs by `policy` (production's rules, say) instead of the tests'. */
export function cliUnder(
  policy: WebhookDestinationPolicy,
  ...argv: string[]
): Promise<{ status: number; stdout: string; stderr: string }> {
  return runFixtureCli(policy, argv, cliAdmin?.credential);
}

async function runFixtureCli(
  policy: WebhookDestinationPolicy,
  argv: string[],
  credential: string | undefined,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const admin = cliAdmin;
  const status = await runCli(argv, {
    webhookDestinations: policy,
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      const connection = createProducerConnection(process.env.REDIS_URL!);
      const queue = new Queue(PAYOUT_QUEUE, { connection, prefix: process.env.QUEUE_PREFIX! });
      return {
        queue,
        close: async () => {
          await queue.close();
          connection.disconnect();
        },
      };
    },
    ...(admin && {
      openAdmin: () => createAdminClient({ url: admin.url, ...(credential !== undefined && { credential }) }),
      signIn: personAtTerminal(admin.url, credential),
    }),
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** Runs a CLI command with --json that must succeed, and returns its JSON output. */
export async function cliJson(...argv: string[]): Promise<Record<string, unknown>> {
  const result = await cli(...argv, '--json');
  if (result.status !== EXIT_OK) throw new Error(`cli ${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** {@link cliJson} as the person whose credential is given (the shape `askedAndApproved` runs commands with). */
export async function cliJsonAs(credential: string, ...argv: string[]): Promise<Record<string, unknown>> {
  const result = await cliAs(credential, ...argv, '--json');
  if (result.status !== EXIT_OK) throw new Error(`cli ${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}
