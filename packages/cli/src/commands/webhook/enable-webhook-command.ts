import type { Command } from 'commander';
import { merchantCommand, noted } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { showResult, type Row } from '../../output.js';

/** `webhook enable`: enables an endpoint disabled for failing a whole retry window, resuming its deliveries. */
export function registerWebhookEnableCommand(webhook: Command, context: () => CommandContext): void {
  noted(
    merchantCommand(
      webhook,
      'enable',
      "enable a merchant's webhook endpoint that was disabled for failing a whole retry window, and resume its kept deliveries",
    ),
  ).action(async (opts: { mid: string; note?: string }) => {
    const { admin, out } = context();
    const answer = await admin().post<{ webhook: Row }>(
      `/admin/merchants/${encodeURIComponent(opts.mid)}/webhook/enable`,
      { why: opts.note ?? 'enabled from the CLI' },
    );
    showResult(out, answer.webhook, [
      answer.webhook.queued === false &&
        'Redis did not take every job: the worker sweeper sends them within its interval.',
    ]);
  });
}
