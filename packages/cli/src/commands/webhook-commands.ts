import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Queue } from 'bullmq';
import type { Command } from 'commander';
import {
  changeWebhookUrl,
  findPayoutByTransactionId,
  findDisabledWebhookEndpoints,
  findWebhookDeliveries,
  findWebhookEndpoint,
  registerWebhookEndpoint,
  type WebhookEndpointView,
} from '@payout/db';
import {
  isForbiddenWebhookAddress,
  newWebhookSecret,
  webhookSecretDisplayPrefix,
  webhookUrlProblem,
  type WebhookDestinationPolicy,
} from '@payout/domain';
import { WEBHOOK_QUEUE } from '@payout/queue';
import { enableWebhookEndpointAction, replayWebhook } from '@payout/use-cases';
import { audited, merchantCommand, payoutCommand, requestedBy } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { merchantByMid } from '../merchant-by-mid.js';
import { show, showResult } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/** How long a replaced secret keeps signing deliveries (as a second signature) after `merchant webhook`. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function registerWebhookCommands(program: Command, context: () => CommandContext): void {
  const merchant =
    program.commands.find((c) => c.name() === 'merchant') ?? program.command('merchant').description('merchants');

  merchantCommand(
    merchant,
    'webhook',
    "register the merchant's webhook URL and print a new signing secret, once (an earlier secret keeps signing for 24 h)",
  )
    .requiredOption(
      '--url <url>',
      'where payout results are POSTed (https:// in production; never a loopback, private or metadata address)',
      urlArgument,
    )
    .option('--keep-secret', 'only change the URL; the current secret stays')
    .action(async (opts: { mid: string; url: string; keepSecret?: boolean }) => {
      const { db, out, webhookDestinations } = context();
      await checkDestination(opts.url, webhookDestinations);
      const found = await merchantByMid(db(), opts.mid);
      if (opts.keepSecret) {
        const endpoint = await changeWebhookUrl(db(), found.id, opts.url);
        if (!endpoint)
          throw new CommandFailure(`MID ${opts.mid} has no webhook yet: register one without --keep-secret`);
        const view = endpointView(opts.mid, endpoint);
        showResult(out, view);
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
      showResult(out, view, [
        'Give the secret to the merchant now: it is never shown again. See docs/webhooks.md for how to verify deliveries.',
      ]);
    });

  const webhook = program.command('webhook').description("merchants' payout webhooks: replay and inspect deliveries");

  audited(
    payoutCommand(
      webhook,
      'replay',
      "send a settled payout's result to the merchant's webhook again, as a fresh delivery",
    ),
    'replaying it',
  ).action(async (opts: { mid: string; TransactionID: string; operator?: string; note?: string }) => {
    const { db, out } = context();
    const found = await merchantByMid(db(), opts.mid);
    const { operator, ...requested } = requestedBy(opts, 'replayed from the CLI');
    const replay = await withWebhookQueue(context(), (webhookQueue) =>
      replayWebhook(
        { db: db(), webhookQueue },
        { payout: { mid: opts.mid, transactionId: opts.TransactionID }, ...requested },
      ),
    );
    switch (replay.kind) {
      case 'no-payout':
        throw new CommandFailure(`no payout ${opts.TransactionID} for MID ${opts.mid}`);
      case 'not-settled':
        throw new CommandFailure(
          `payout ${opts.TransactionID} is still PENDING: its webhook is sent when it settles; nothing queued`,
        );
      case 'no-endpoint':
        throw new CommandFailure(`MID ${opts.mid} has no webhook URL: register one with \`merchant webhook\``);
      case 'queued': {
        const disabled = (await findWebhookEndpoint(db(), found.id))?.disabledAt ?? null;
        const view = {
          mid: opts.mid,
          TransactionID: opts.TransactionID,
          payoutStatus: replay.payoutStatus,
          deliveryId: replay.deliveryId.toString(),
          queued: replay.queued,
          operator,
        };
        showResult(out, view, [
          !replay.queued && 'Redis did not take the job: the worker sweeper sends it within its interval.',
          disabled &&
            `The endpoint is disabled since ${disabled.toISOString()}: the delivery is held until \`webhook enable --mid ${opts.mid}\`.`,
        ]);
      }
    }
  });

  audited(
    merchantCommand(
      webhook,
      'enable',
      "enable a merchant's webhook endpoint that was disabled for failing a whole retry window, and resume its kept deliveries",
    ),
    'enabling it',
  ).action(async (opts: { mid: string; operator?: string; note?: string }) => {
    const { db, out } = context();
    const found = await merchantByMid(db(), opts.mid);
    const { operator, ...requested } = requestedBy(opts, 'enabled from the CLI');
    const enabled = await withWebhookQueue(context(), (webhookQueue) =>
      enableWebhookEndpointAction({ db: db(), webhookQueue }, { merchantId: found.id, ...requested }),
    );
    switch (enabled.kind) {
      case 'no-endpoint':
        throw new CommandFailure(`MID ${opts.mid} has no webhook URL: register one with \`merchant webhook\``);
      case 'not-disabled':
        throw new CommandFailure(`the webhook endpoint of MID ${opts.mid} is not disabled; nothing changed`);
      case 'enabled': {
        const view = {
          mid: opts.mid,
          disabledAt: enabled.disabledAt.toISOString(),
          disabledReason: enabled.disabledReason,
          resumed: enabled.resumed,
          queued: enabled.queued,
          operator,
        };
        showResult(out, view, [
          !enabled.queued && 'Redis did not take every job: the worker sweeper sends them within its interval.',
        ]);
      }
    }
  });

  webhook
    .command('disabled')
    .description('webhook endpoints disabled for failing a whole retry window, with the deliveries kept for each')
    .action(async () => {
      const { db, out } = context();
      const endpoints = await findDisabledWebhookEndpoints(db());
      const rows = endpoints.map((e) => ({
        mid: e.mid,
        url: e.url,
        disabledAt: e.disabledAt.toISOString(),
        held: e.held,
        reason: e.disabledReason,
      }));
      show(out, { endpoints: rows }, [{ rows }]);
    });

  payoutCommand(webhook, 'show', "a payout's webhook deliveries, each with every attempt").action(
    async (opts: { mid: string; TransactionID: string }) => {
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
            sequence: d.sequence,
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
    },
  );
}

/**
 * Runs `use` with the webhooks queue, opened over the connection of the CLI's queue (a replay's first
 * attempt and an enabled endpoint's held deliveries are queued on it), and closes it after.
 */
async function withWebhookQueue<T>(context: CommandContext, use: (webhookQueue: Queue) => Promise<T>): Promise<T> {
  const { connection, prefix } = context.queue().opts;
  const webhookQueue = new Queue(WEBHOOK_QUEUE, { connection, ...(prefix !== undefined && { prefix }) });
  webhookQueue.on('error', () => undefined); // the outcome is reported as `queued`
  try {
    return await use(webhookQueue);
  } finally {
    await webhookQueue.close().catch(() => undefined);
  }
}

function endpointView(mid: string, endpoint: WebhookEndpointView) {
  return {
    mid,
    url: endpoint.url,
    secretPrefix: endpoint.secretPrefix,
    previousSecretValidUntil: endpoint.previousSecretValidUntil?.toISOString() ?? null,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
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

/**
 * Refuses a URL a webhook may not be sent to (docs/webhooks.md): by its form, then by every address its
 * host resolves to now. A name that does not resolve yet is accepted — the worker checks the address of
 * every connection it makes, so a name pointed at a private address later gets no further either.
 */
async function checkDestination(url: string, policy: WebhookDestinationPolicy): Promise<void> {
  const problem = webhookUrlProblem(url, policy);
  if (problem) throw new UsageError(`--url ${problem}: got "${url}"`);
  if (policy.allowPrivateAddresses) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return;
  }
  const refused = addresses.find((a) => isForbiddenWebhookAddress(a.address));
  if (refused) {
    throw new UsageError(
      `--url must not point to a loopback, private, link-local or metadata address: ${host} resolves to ${refused.address}`,
    );
  }
}
