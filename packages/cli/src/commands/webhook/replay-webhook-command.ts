import type { Command } from 'commander';
import { findWebhookEndpoint } from '@payout/db';
import { replayWebhook } from '@payout/use-cases';
import { audited, payoutCommand, requestedBy, type AuditedOptions } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { merchantByMid } from '../../merchant-by-mid.js';
import { showResult } from '../../output.js';
import { noPayout } from '../../payout-by-transaction-id.js';
import { CommandFailure } from '../../usage-error.js';
import { noWebhookEndpoint, withWebhookQueue } from './webhook-queue.js';

type ReplayOptions = AuditedOptions & { mid: string; TransactionID: string };

/** `webhook replay`: sends a settled payout's result to the merchant again, as a fresh delivery. */
export function registerWebhookReplayCommand(webhook: Command, context: () => CommandContext): void {
  audited(
    payoutCommand(
      webhook,
      'replay',
      "send a settled payout's result to the merchant's webhook again, as a fresh delivery",
    ),
    'replaying it',
  ).action(async (opts: ReplayOptions) => {
    const ctx = context();
    const found = await merchantByMid(ctx.db(), opts.mid);
    const { operator, ...requested } = requestedBy(opts, 'replayed from the CLI');
    const replay = await withWebhookQueue(ctx, (webhookQueue) =>
      replayWebhook(
        { db: ctx.db(), webhookQueue },
        { payout: { mid: opts.mid, transactionId: opts.TransactionID }, ...requested },
      ),
    );
    switch (replay.kind) {
      case 'no-payout':
        throw noPayout(opts.mid, opts.TransactionID);
      case 'not-settled':
        throw new CommandFailure(
          `payout ${opts.TransactionID} is still PENDING: its webhook is sent when it settles; nothing queued`,
        );
      case 'no-endpoint':
        throw noWebhookEndpoint(opts.mid);
      case 'queued': {
        const disabled = (await findWebhookEndpoint(ctx.db(), found.id))?.disabledAt ?? null;
        const view = {
          mid: opts.mid,
          TransactionID: opts.TransactionID,
          payoutStatus: replay.payoutStatus,
          deliveryId: replay.deliveryId.toString(),
          queued: replay.queued,
          operator,
        };
        showResult(ctx.out, view, [
          !replay.queued && 'Redis did not take the job: the worker sweeper sends it within its interval.',
          disabled &&
            `The endpoint is disabled since ${disabled.toISOString()}: the delivery is held until \`webhook enable --mid ${opts.mid}\`.`,
        ]);
      }
    }
  });
}
