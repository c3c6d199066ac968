import type { Command } from 'commander';
import { findDisabledWebhookEndpoints, findWebhookDeliveries, type WebhookDeliveryView } from '@payout/db';
import { payoutCommand } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { show } from '../../output.js';
import { payoutByTransactionId } from '../../payout-by-transaction-id.js';

/** `webhook disabled` and `webhook show`: what is held, and what was sent for a payout. */
export function registerWebhookInspectionCommands(webhook: Command, context: () => CommandContext): void {
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
      const payout = await payoutByTransactionId(db(), opts.mid, opts.TransactionID);
      const deliveries = await findWebhookDeliveries(db(), payout.id);
      show(out, { mid: opts.mid, TransactionID: opts.TransactionID, deliveries }, [
        { title: 'Deliveries', rows: deliveries.map(deliveryRow) },
        { title: '\nAttempts', rows: deliveries.flatMap(attemptRows) },
      ]);
    },
  );
}

function deliveryRow(d: WebhookDeliveryView) {
  return {
    id: d.id.toString(),
    cause: d.cause,
    sequence: d.sequence,
    status: d.status,
    attempts: d.attempts.length,
    requestedBy: d.requestedBy,
    createdAt: d.createdAt.toISOString(),
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    finishedAt: d.finishedAt?.toISOString() ?? null,
  };
}

function attemptRows(d: WebhookDeliveryView) {
  return d.attempts.map((a) => ({
    delivery: d.id.toString(),
    attempt: a.attempt,
    at: a.startedAt.toISOString(),
    ms: a.durationMs,
    status: a.statusCode,
    error: a.error,
    url: a.url,
  }));
}
