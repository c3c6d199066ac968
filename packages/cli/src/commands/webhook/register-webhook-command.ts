import type { Command } from 'commander';
import { calledWrongly } from '../../admin-client.js';
import { merchantCommand } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { showResult, type Row } from '../../output.js';
import { checkDestination, urlArgument } from './webhook-destination.js';

/**
 * `merchant webhook`: points the merchant's webhooks at a URL. The signing secret is never shown here: the
 * merchant fetches it through its own API (docs/webhooks.md, "The signing secret"); a moved endpoint keeps it.
 */
export function registerMerchantWebhookCommand(merchant: Command, context: () => CommandContext): void {
  merchantCommand(
    merchant,
    'webhook',
    "set the merchant's webhook URL (its signing secret stays the merchant's: it fetches it with POST /api/webhook/secret)",
  )
    .requiredOption(
      '--url <url>',
      'where payout results are POSTed (https:// in production; never a loopback, private or metadata address)',
      urlArgument,
    )
    .action(async (opts: { mid: string; url: string }) => {
      const ctx = context();
      // Said here before anything is sent; the admin listener checks the same rules again, and decides.
      await checkDestination(opts.url, ctx.webhookDestinations);
      const answer = await ctx
        .admin()
        .post<{ webhook: Row }>(`/admin/merchants/${encodeURIComponent(opts.mid)}/webhook`, { url: opts.url })
        .catch(calledWrongly);
      showResult(ctx.out, answer.webhook, [
        answer.webhook.awaitingSecret === true &&
          'Deliveries are held until the merchant fetches its signing secret (POST /api/webhook/secret, docs/webhooks.md): tell the merchant.',
      ]);
    });
}
