import type { Command } from 'commander';
import { noted, payoutCommand } from '../../arguments.js';
import type { CommandContext } from '../../context.js';
import { showResult, type Row } from '../../output.js';

/** `webhook replay`: sends a settled payout's result to the merchant again, as a fresh delivery. */
export function registerWebhookReplayCommand(webhook: Command, context: () => CommandContext): void {
  noted(
    payoutCommand(
      webhook,
      'replay',
      "send a settled payout's result to the merchant's webhook again, as a fresh delivery",
    ),
  ).action(async (opts: { mid: string; TransactionID: string; note?: string }) => {
    const { admin, out } = context();
    const answer = await admin().post<{ replay: Row & { endpointDisabledAt: string | null } }>(
      '/admin/webhooks/replay',
      { mid: opts.mid, TransactionID: opts.TransactionID, why: opts.note ?? 'replayed from the CLI' },
    );
    const { endpointDisabledAt: disabled, ...replay } = answer.replay;
    showResult(out, replay, [
      replay.queued === false && 'Redis did not take the job: the worker sweeper sends it within its interval.',
      disabled !== null &&
        `The endpoint is disabled since ${disabled}: the delivery is held until \`webhook enable --mid ${opts.mid}\`.`,
    ]);
  });
}
