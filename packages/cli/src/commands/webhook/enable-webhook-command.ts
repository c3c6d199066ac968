import type { Command } from 'commander';
import { enableWebhookEndpointAction } from '@payout/use-cases';
import { audited, merchantCommand, requestedBy, type AuditedOptions } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { merchantByMid } from '../../merchant-by-mid.js';
import { showResult } from '../../output.js';
import { CommandFailure } from '../../usage-error.js';
import { noWebhookEndpoint, withWebhookQueue } from './webhook-queue.js';

/** `webhook enable`: enables an endpoint disabled for failing a whole retry window, resuming its deliveries. */
export function registerWebhookEnableCommand(webhook: Command, context: () => CommandContext): void {
  audited(
    merchantCommand(
      webhook,
      'enable',
      "enable a merchant's webhook endpoint that was disabled for failing a whole retry window, and resume its kept deliveries",
    ),
    'enabling it',
  ).action(async (opts: AuditedOptions & { mid: string }) => {
    const ctx = context();
    const found = await merchantByMid(ctx.db(), opts.mid);
    const { operator, ...requested } = requestedBy(opts, 'enabled from the CLI');
    const enabled = await withWebhookQueue(ctx, (webhookQueue) =>
      enableWebhookEndpointAction({ db: ctx.db(), webhookQueue }, { merchantId: found.id, ...requested }),
    );
    switch (enabled.kind) {
      case 'no-endpoint':
        throw noWebhookEndpoint(opts.mid);
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
        showResult(ctx.out, view, [
          !enabled.queued && 'Redis did not take every job: the worker sweeper sends them within its interval.',
        ]);
      }
    }
  });
}
