import type { Command } from 'commander';
import { formatRupees, type Paise } from '@payout/domain';
import { MERCHANT_LIMIT_CEILING, merchantJson } from '@payout/use-cases';
import { amountArgument, merchantCommand, midArgument, nonEmptyArgument, noted } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { merchantByMid } from '../merchant-by-mid.js';
import { showResult, type Row } from '../output.js';
import { UsageError } from '../usage-error.js';
import { showRequested, type ApprovalAnswer } from './approval-commands.js';
import { merchantMadeTokenOptions } from './token-commands.js';
import { registerMerchantAllowlistCommand } from './merchant-allowlist-command.js';
import { registerMerchantPeopleCommands } from './merchant-people-commands.js';

export function registerMerchantCommands(program: Command, context: () => CommandContext): void {
  const merchant = program
    .command('merchant')
    .description(
      'ask for a new merchant, suspend, activate and change merchants (as you, signed in); show one (a deployment command)',
    );
  registerCreateCommand(merchant, context);
  registerStatusCommands(merchant, context);
  registerMerchantPeopleCommands(merchant, context);
  registerUpdateCommand(merchant, context);
  registerRoutingCommand(merchant, context);
  registerMerchantAllowlistCommand(merchant, context);
  merchantCommand(merchant, 'show', 'show a merchant').action(async (opts: { mid: string }) => {
    const { db, out } = context();
    const found = await merchantByMid(db(), opts.mid);
    showResult(out, merchantJson(found));
  });
}

interface CreateOptions {
  name: string;
  mid?: string;
  impsLimit?: Paise;
  upiLimit?: Paise;
  tokenDigest: string;
  ownerEmail?: string;
  tokenPrefix: string;
  note?: string;
}

/**
 * `merchant create`: asks for a new merchant with the token it made itself — its prefix and digest, as the
 * merchant's `payout-token` printed them (docs/operations.md, "A merchant's token and webhook secret").
 * Another approver approves; nobody at the gateway ever holds the token.
 */
function registerCreateCommand(merchant: Command, context: () => CommandContext): void {
  noted(
    merchantMadeTokenOptions(
      merchant
        .command('create')
        .description(
          'ask for a new merchant with the token it made itself (payout-token: its prefix and digest); another approver approves',
        )
        .requiredOption('--name <name>', 'merchant name', nonEmptyArgument('name', 200))
        .option('--mid <mid>', 'MID to use (default: generated, shown in the request)', midArgument)
        .option('--imps-limit <amount>', 'largest IMPS payout in rupees (default 500000.00)', amountArgument)
        .option('--upi-limit <amount>', 'largest UPI payout in rupees (default 100000.00)', amountArgument)
        .option('--owner-email <email>', "the e-mail of the owner of the merchant's dashboard (docs/dashboard.md)"),
    ),
    'why, for the approver and the audit log',
  ).action(async (opts: CreateOptions) => {
    const { admin, out } = context();
    checkLimit('--imps-limit', opts.impsLimit, MERCHANT_LIMIT_CEILING.imps);
    checkLimit('--upi-limit', opts.upiLimit, MERCHANT_LIMIT_CEILING.upi);
    const answer = await admin().post<{ approval: ApprovalAnswer }>('/admin/merchants', {
      name: opts.name,
      ...(opts.mid !== undefined && { mid: opts.mid }),
      ...(opts.impsLimit !== undefined && { impsLimit: formatRupees(opts.impsLimit) }),
      ...(opts.upiLimit !== undefined && { upiLimit: formatRupees(opts.upiLimit) }),
      tokenDigest: opts.tokenDigest,
      tokenPrefix: opts.tokenPrefix,
      ...(opts.ownerEmail !== undefined && { ownerEmail: opts.ownerEmail }),
      ...(opts.note !== undefined && { why: opts.note }),
    });
    showRequested(out, answer);
  });
}

/** `merchant suspend` and `merchant activate`. */
function registerStatusCommands(merchant: Command, context: () => CommandContext): void {
  for (const name of ['suspend', 'activate'] as const) {
    noted(merchantCommand(merchant, name, `${name} a merchant (a suspended merchant's requests are refused)`)).action(
      async (opts: { mid: string; note?: string }) => {
        const { admin, out } = context();
        const answer = await admin().post<{ merchant: Row }>(
          `/admin/merchants/${encodeURIComponent(opts.mid)}/${name}`,
          {
            why: opts.note ?? `${name === 'suspend' ? 'suspended' : 'activated'} from the CLI`,
          },
        );
        showResult(out, answer.merchant);
      },
    );
  }
}

function registerUpdateCommand(merchant: Command, context: () => CommandContext): void {
  noted(merchantCommand(merchant, 'update', "change a merchant's settings"))
    .option(
      '--queue-if-low-balance <on|off>',
      'queue payouts that do not fit the balance until a credit makes room, instead of refusing them',
      onOffArgument,
    )
    .option(
      '--queue-window <duration>',
      'how long a queued payout waits before it fails, e.g. 72h, 90m, 3d',
      durationArgument,
    )
    .action(async (opts: { mid: string; queueIfLowBalance?: boolean; queueWindow?: number; note?: string }) => {
      const { admin, out } = context();
      if (opts.queueIfLowBalance === undefined && opts.queueWindow === undefined) {
        throw new UsageError('nothing to change: give --queue-if-low-balance and/or --queue-window');
      }
      const answer = await admin().post<{ merchant: Row }>(
        `/admin/merchants/${encodeURIComponent(opts.mid)}/queue-settings`,
        {
          ...(opts.queueIfLowBalance !== undefined && { queueIfLowBalance: opts.queueIfLowBalance }),
          ...(opts.queueWindow !== undefined && { queueWindowSeconds: opts.queueWindow }),
          ...(opts.note !== undefined && { why: opts.note }),
        },
      );
      showResult(out, answer.merchant);
    });
}

/** `merchant routing`: pin a merchant to a bank, or unpin it, and set its downtime hold window (docs/banks.md). */
function registerRoutingCommand(merchant: Command, context: () => CommandContext): void {
  noted(merchantCommand(merchant, 'routing', "change how a merchant's payouts are routed among the banks"))
    .option(
      '--pin <bank>',
      'send every payout of the merchant to this bank (an alias from BANKS)',
      nonEmptyArgument('pin', 32),
    )
    .option('--unpin', 'route the merchant by health again')
    .option(
      '--hold <duration>',
      'how long a payout is held through a downtime of every bank before it fails, e.g. 30m, 90s, 2h (1s to 1d)',
      holdArgument,
    )
    .action(async (opts: { mid: string; pin?: string; unpin?: boolean; hold?: number; note?: string }) => {
      const { admin, out } = context();
      if (opts.pin !== undefined && opts.unpin) throw new UsageError('give --pin <bank> or --unpin, not both');
      if (opts.pin === undefined && !opts.unpin && opts.hold === undefined) {
        throw new UsageError('nothing to change: give --pin <bank>, --unpin and/or --hold');
      }
      const answer = await admin().post<{ merchant: Row }>(`/admin/merchants/${encodeURIComponent(opts.mid)}/routing`, {
        ...(opts.pin !== undefined && { pinnedBank: opts.pin }),
        ...(opts.unpin && { pinnedBank: null }),
        ...(opts.hold !== undefined && { downtimeHoldSeconds: opts.hold }),
        ...(opts.note !== undefined && { why: opts.note }),
      });
      showResult(out, answer.merchant);
    });
}

/** A hold window such as 30m, 90s or 2h, in seconds: at least a second, at most a day (docs/banks.md, "Holding"). */
export function holdArgument(value: string): number {
  const match = /^([1-9][0-9]{0,5})([smhd])$/.exec(value);
  const seconds = match ? Number(match[1]) * DURATION_UNIT_SECONDS[match[2]!]! : NaN;
  if (!(seconds >= 1 && seconds <= 86_400)) {
    throw new UsageError(`expected a duration from 1s to 1d such as 30m, 90s or 2h, got ${JSON.stringify(value)}`);
  }
  return seconds;
}

function checkLimit(flag: string, value: Paise | undefined, ceiling: Paise): void {
  if (value !== undefined && value > ceiling) {
    throw new UsageError(`${flag} may not exceed ${formatRupees(ceiling)}`);
  }
}

function onOffArgument(value: string): boolean {
  if (value === 'on' || value === 'off') return value === 'on';
  throw new UsageError(`expected on or off, got ${JSON.stringify(value)}`);
}

const DURATION_UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };
/** The longest queue window: a payout should not wait for balance for more than a month. */
const MAX_QUEUE_WINDOW_SECONDS = 30 * 86_400;

/** A duration such as 72h, 90m or 3d, in seconds: at least a minute, at most 30 days. */
export function durationArgument(value: string): number {
  const match = /^([1-9][0-9]{0,6})([smhd])$/.exec(value);
  const seconds = match ? Number(match[1]) * DURATION_UNIT_SECONDS[match[2]!]! : NaN;
  if (!(seconds >= 60 && seconds <= MAX_QUEUE_WINDOW_SECONDS)) {
    throw new UsageError(`expected a duration from 1m to 30d such as 72h, 90m or 3d, got ${JSON.stringify(value)}`);
  }
  return seconds;
}
