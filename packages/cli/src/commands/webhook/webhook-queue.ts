import { Queue } from 'bullmq';
import { WEBHOOK_QUEUE } from '@payout/queue';
import type { CommandContext } from '../../context.js';
import { CommandFailure } from '../../usage-error.js';

/**
 * Runs `use` with the webhooks queue, opened over the connection of the CLI's queue (a replay's first
 * attempt and an enabled endpoint's held deliveries are queued on it), and closes it after.
 */
export async function withWebhookQueue<T>(
  context: CommandContext,
  use: (webhookQueue: Queue) => Promise<T>,
): Promise<T> {
  const { connection, prefix } = context.queue().opts;
  const webhookQueue = new Queue(WEBHOOK_QUEUE, { connection, ...(prefix !== undefined && { prefix }) });
  webhookQueue.on('error', () => undefined); // the outcome is reported as `queued`
  try {
    return await use(webhookQueue);
  } finally {
    await webhookQueue.close().catch(() => undefined);
  }
}

/** The failure of a webhook command for a merchant that has registered no webhook URL. */
export function noWebhookEndpoint(mid: string): CommandFailure {
  return new CommandFailure(`MID ${mid} has no webhook URL: register one with \`merchant webhook\``);
}
