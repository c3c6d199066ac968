import type { Command } from 'commander';
import { changeWebhookUrl, registerWebhookEndpoint, type WebhookEndpointView } from '@payout/db';
import { newWebhookSecret, webhookSecretDisplayPrefix } from '@payout/domain';
import { merchantCommand } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { merchantByMid } from '../../merchant-by-mid.js';
import { showResult } from '../../output.js';
import { CommandFailure } from '../../usage-error.js';
import { checkDestination, urlArgument } from './webhook-destination.js';

/** How long a replaced secret keeps signing deliveries (as a second signature) after `merchant webhook`. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** `merchant webhook`: registers the merchant's webhook URL, with a new signing secret unless --keep-secret. */
export function registerMerchantWebhookCommand(merchant: Command, context: () => CommandContext): void {
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
      const ctx = context();
      await checkDestination(opts.url, ctx.webhookDestinations);
      const found = await merchantByMid(ctx.db(), opts.mid);
      if (opts.keepSecret) await changeUrl(ctx, found.id, opts);
      else await registerWithNewSecret(ctx, found.id, opts);
    });
}

async function changeUrl({ db, out }: CommandContext, merchantId: number, opts: { mid: string; url: string }) {
  const endpoint = await changeWebhookUrl(db(), merchantId, opts.url);
  if (!endpoint) throw new CommandFailure(`MID ${opts.mid} has no webhook yet: register one without --keep-secret`);
  showResult(out, endpointView(opts.mid, endpoint));
}

async function registerWithNewSecret(
  { db, out }: CommandContext,
  merchantId: number,
  opts: { mid: string; url: string },
) {
  const secret = newWebhookSecret();
  const endpoint = await registerWebhookEndpoint(
    db(),
    merchantId,
    { url: opts.url, secret, secretPrefix: webhookSecretDisplayPrefix(secret) },
    SECRET_OVERLAP_MS,
  );
  showResult(out, { ...endpointView(opts.mid, endpoint), secret }, [
    'Give the secret to the merchant now: it is never shown again. See docs/webhooks.md for how to verify deliveries.',
  ]);
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
