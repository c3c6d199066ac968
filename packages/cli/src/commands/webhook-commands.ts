import { userInfo } from 'node:os';
import { Queue } from 'bullmq';
import type { Command } from 'commander';
import {
  changeWebhookUrl,
  findMerchantByMid,
  findPayoutByTransactionId,
  findWebhookDeliveries,
  recordWebhookReplay,
  registerWebhookEndpoint,
  type Merchant,
  type WebhookEndpointView,
} from '@payout/db';
import { isTransactionId, newWebhookSecret, webhookSecretDisplayPrefix } from '@payout/domain';
import { WEBHOOK_QUEUE, webhookJobs } from '@payout/queue';
import { midArgument, nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/** How long a replaced secret keeps signing deliveries (as a second signature) after `merchant webhook`. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function registerWebhookCommands(program: Command, context: () => CommandContext): void {
  const merchant =
    program.commands.find((c) => c.name() === 'merchant') ?? program.command('merchant').description('merchants');

  merchant
    .command('webhook')
    .description(
      "register the merchant's webhook URL and print a new signing secret, once (an earlier secret keeps signing for 24 h)",
    )
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .requiredOption('--url <url>', 'where payout results are POSTed (https:// in production)', urlArgument)
    .option('--keep-secret', 'only change the URL; the current secret stays')
    .action(async (opts: { mid: string; url: string; keepSecret?: boolean }) => {
      const { db, out } = context();
      const found = await merchantByMid(db(), opts.mid);
      if (opts.keepSecret) {
        const endpoint = await changeWebhookUrl(db(), found.id, opts.url);
        if (!endpoint)
          throw new CommandFailure(`MID ${opts.mid} has no webhook yet: register one without --keep-secret`);
        const view = endpointView(opts.mid, endpoint);
        show(out, view, [{ rows: [view] }]);
        return;
      }
      const secret = newWebhookSecret();
      const endpoint = await registerWebhookEndpoint(
        db(),
        found.id,
        { url: opts.url, secret, secretPrefix: webhookSecretDisplayPrefix(secret) },
        SECRET_OVERLAP_MS,
      );
      const view = { ...endpointView(opts.mid, endpoint), secret };
      show(out, view, [
        { rows: [view] },
        {
          rows: [
            {
              note: 'Give the secret to the merchant now: it is never shown again. See docs/webhooks.md for how to verify deliveries.',
            },
          ],
        },
      ]);
    });

  const webhook = program.command('webhook').description("merchants' payout webhooks: replay and inspect deliveries");

  webhook
    .command('replay')
    .description("send a settled payout's result to the merchant's webhook again, as a fresh delivery")
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .requiredOption('--TransactionID <id>', "the payout's TransactionID", transactionIdArgument)
    .option('--operator <name>', 'who is replaying it (recorded with the delivery)', nonEmptyArgument('operator', 60))
    .action(async (opts: { mid: string; TransactionID: string; operator?: string }) => {
      const { db, out } = context();
      const found = await merchantByMid(db(), opts.mid);
      const operator = opts.operator ?? userInfo().username;
      const replay = await recordWebhookReplay(db(), found.id, opts.TransactionID, `operator:${operator}`);
      switch (replay.kind) {
        case 'no-payout':
          throw new CommandFailure(`no payout ${opts.TransactionID} for MID ${opts.mid}`);
        case 'not-settled':
          throw new CommandFailure(
            `payout ${opts.TransactionID} is still PENDING: its webhook is sent when it settles; nothing queued`,
          );
        case 'no-endpoint':
          throw new CommandFailure(`MID ${opts.mid} has no webhook URL: register one with \`merchant webhook\``);
        case 'queued':
          break;
      }
      const queued = await queueFirstAttempt(context(), replay.deliveryId);
      const view = {
        mid: opts.mid,
        TransactionID: opts.TransactionID,
        payoutStatus: replay.payoutStatus,
        deliveryId: replay.deliveryId.toString(),
        queued,
        operator,
      };
      show(out, view, [
        { rows: [view] },
        ...(queued
          ? []
          : [{ rows: [{ note: 'Redis did not take the job: the worker sweeper sends it within its interval.' }] }]),
      ]);
    });

  webhook
    .command('show')
    .description("a payout's webhook deliveries, each with every attempt")
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .requiredOption('--TransactionID <id>', "the payout's TransactionID", transactionIdArgument)
    .action(async (opts: { mid: string; TransactionID: string }) => {
      const { db, out } = context();
      const found = await merchantByMid(db(), opts.mid);
      const payout = await findPayoutByTransactionId(db(), found.id, opts.TransactionID);
      if (!payout) throw new CommandFailure(`no payout ${opts.TransactionID} for MID ${opts.mid}`);
      const deliveries = await findWebhookDeliveries(db(), payout.id);
      show(out, { mid: opts.mid, TransactionID: opts.TransactionID, deliveries }, [
        {
          title: 'Deliveries',
          rows: deliveries.map((d) => ({
            id: d.id.toString(),
            cause: d.cause,
            status: d.status,
            attempts: d.attempts.length,
            requestedBy: d.requestedBy,
            createdAt: d.createdAt.toISOString(),
            nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
            finishedAt: d.finishedAt?.toISOString() ?? null,
          })),
        },
        {
          title: '\nAttempts',
          rows: deliveries.flatMap((d) =>
            d.attempts.map((a) => ({
              delivery: d.id.toString(),
              attempt: a.attempt,
              at: a.startedAt.toISOString(),
              ms: a.durationMs,
              status: a.statusCode,
              error: a.error,
              url: a.url,
            })),
          ),
        },
      ]);
    });
}

async function merchantByMid(db: ReturnType<CommandContext['db']>, mid: string): Promise<Merchant> {
  const found = await findMerchantByMid(db, mid);
  if (!found) throw new CommandFailure(`no merchant with MID ${mid}`);
  return found;
}

/**
 * Queues a delivery's first attempt on the webhooks queue, over the connection of the CLI's queue. False when
 * Redis is away: the delivery is safe in PostgreSQL and the worker's sweeper queues it.
 */
async function queueFirstAttempt(context: CommandContext, deliveryId: bigint): Promise<boolean> {
  let webhooks: Queue | undefined;
  try {
    const { connection, prefix } = context.queue().opts;
    webhooks = new Queue(WEBHOOK_QUEUE, { connection, ...(prefix !== undefined && { prefix }) });
    webhooks.on('error', () => undefined); // the outcome is reported as `queued`
    const id = deliveryId.toString();
    await webhooks.add(
      webhookJobs.deliver.name,
      { deliveryId: id, attempt: 1 },
      { ...webhookJobs.deliver.options, jobId: webhookJobs.deliver.jobId(id, 1) },
    );
    return true;
  } catch {
    return false;
  } finally {
    await webhooks?.close().catch(() => undefined);
  }
}

function endpointView(mid: string, endpoint: WebhookEndpointView) {
  return {
    mid,
    url: endpoint.url,
    secretPrefix: endpoint.secretPrefix,
    previousSecretValidUntil: endpoint.previousSecretValidUntil?.toISOString() ?? null,
  };
}

function urlArgument(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an absolute http:// or https:// URL: got "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--url must be an http:// or https:// URL: got "${text}"`);
  }
  // Credentials in a URL end up in logs and attempt records; the signature is how the merchant knows it is us.
  if (url.username || url.password) throw new UsageError('--url must not carry a user name or password');
  if (url.href.length > 2048) throw new UsageError('--url must be at most 2048 characters');
  return url.href;
}

function transactionIdArgument(text: string): string {
  if (!isTransactionId(text)) throw new UsageError(`--TransactionID must be 1–30 digits: got "${text}"`);
  return text;
}
