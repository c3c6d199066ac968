import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { registerWebhookEnableCommand } from './webhook/enable-webhook-command.js';
import { registerMerchantWebhookCommand } from './webhook/register-webhook-command.js';
import { registerWebhookReplayCommand } from './webhook/replay-webhook-command.js';
import { registerWebhookInspectionCommands } from './webhook/webhook-inspection-commands.js';

/** `merchant webhook` and the `webhook` group: each command is a module of ./webhook/. */
export function registerWebhookCommands(program: Command, context: () => CommandContext): void {
  const merchant =
    program.commands.find((c) => c.name() === 'merchant') ?? program.command('merchant').description('merchants');
  registerMerchantWebhookCommand(merchant, context);

  const webhook = program.command('webhook').description("merchants' payout webhooks: replay and inspect deliveries");
  registerWebhookReplayCommand(webhook, context);
  registerWebhookEnableCommand(webhook, context);
  registerWebhookInspectionCommands(webhook, context);
}
