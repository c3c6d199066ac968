import type { Command } from 'commander';
import { calledWrongly } from '../../admin-client.js';
import { merchantCommand } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { showResult, type Row } from '../../output.js';
import { checkDestination, urlArgument } from './webhook-destination.js';

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
      // Said here before anything is sent; the admin listener checks the same rules again, and decides.
      await checkDestination(opts.url, ctx.webhookDestinations);
      const answer = await ctx
        .admin()
        .post<{ webhook: Row; secret?: string }>(`/admin/merchants/${encodeURIComponent(opts.mid)}/webhook`, {
          url: opts.url,
          ...(opts.keepSecret && { keepSecret: true }),
        })
        .catch(calledWrongly);
      if (answer.secret === undefined) {
        showResult(ctx.out, answer.webhook);
        return;
      }
      showResult(ctx.out, { ...answer.webhook, secret: answer.secret }, [
        'Give the secret to the merchant now: it is never shown again. See docs/webhooks.md for how to verify deliveries.',
      ]);
    });
}
