import type { Command } from 'commander';
import {
  createMerchant,
  MidTakenError,
  setMerchantStatus,
  updateQueueSettings,
  type Merchant,
  type PrismaClient,
} from '@payout/db';
import { formatRupees, hashToken, newApiToken, rupees, tokenDisplayPrefix, type Paise } from '@payout/domain';
import { randomInt } from 'node:crypto';
import { amountArgument, merchantCommand, midArgument, nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { merchantByMid, noMerchant } from '../merchant-by-mid.js';
import { registerMerchantAllowlistCommand } from './merchant-allowlist-command.js';
import { showResult } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

const IMPS_CEILING = rupees(500_000);
const UPI_CEILING = rupees(100_000);

export function registerMerchantCommands(program: Command, context: () => CommandContext): void {
  const merchant = program.command('merchant').description('create, suspend and activate merchants');
  registerCreateCommand(merchant, context);
  registerStatusCommands(merchant, context);
  registerUpdateCommand(merchant, context);
  registerMerchantAllowlistCommand(merchant, context);
  merchantCommand(merchant, 'show', 'show a merchant').action(async (opts: { mid: string }) => {
    const { db, out } = context();
    const found = await merchantByMid(db(), opts.mid);
    showResult(out, merchantView(found));
  });
}

interface CreateOptions {
  name: string;
  mid?: string;
  impsLimit?: Paise;
  upiLimit?: Paise;
}

function registerCreateCommand(merchant: Command, context: () => CommandContext): void {
  merchant
    .command('create')
    .description('create a merchant and print its MID and first API token (shown once, stored hashed)')
    .requiredOption('--name <name>', 'merchant name', nonEmptyArgument('name', 200))
    .option('--mid <mid>', 'MID to use (default: generated)', midArgument)
    .option('--imps-limit <amount>', 'largest IMPS payout in rupees (default 500000.00)', amountArgument)
    .option('--upi-limit <amount>', 'largest UPI payout in rupees (default 100000.00)', amountArgument)
    .action(async (opts: CreateOptions) => {
      const { db, out } = context();
      checkLimit('--imps-limit', opts.impsLimit, IMPS_CEILING);
      checkLimit('--upi-limit', opts.upiLimit, UPI_CEILING);
      const token = newApiToken();
      const created = await createWithFreeMid(db(), opts, token);
      showResult(out, { ...merchantView(created), token }, [
        'Give the token to the merchant now: it is stored hashed and cannot be shown again.',
      ]);
    });
}

/** Creates the merchant; a generated MID that collides with an existing one is drawn again (up to 5 times). */
async function createWithFreeMid(db: PrismaClient, opts: CreateOptions, token: string): Promise<Merchant> {
  // An explicit MID that is taken is the caller's problem.
  for (let attempt = 0; ; attempt++) {
    try {
      return await createMerchant(db, {
        mid: opts.mid ?? generatedMid(),
        name: opts.name,
        firstTokenHash: hashToken(token),
        firstTokenPrefix: tokenDisplayPrefix(token),
        ...(opts.impsLimit !== undefined && { impsMaxPaise: opts.impsLimit }),
        ...(opts.upiLimit !== undefined && { upiMaxPaise: opts.upiLimit }),
      });
    } catch (error) {
      if (!(error instanceof MidTakenError)) throw error;
      if (opts.mid || attempt >= 5) throw new CommandFailure(error.message);
    }
  }
}

/** `merchant suspend` and `merchant activate`. */
function registerStatusCommands(merchant: Command, context: () => CommandContext): void {
  for (const [name, status] of [
    ['suspend', 'SUSPENDED'],
    ['activate', 'ACTIVE'],
  ] as const) {
    merchantCommand(merchant, name, `${name} a merchant (a suspended merchant's requests are refused)`).action(
      async (opts: { mid: string }) => {
        const { db, out } = context();
        const updated = await setMerchantStatus(db(), opts.mid, status);
        if (!updated) throw noMerchant(opts.mid);
        showResult(out, merchantView(updated));
      },
    );
  }
}

function registerUpdateCommand(merchant: Command, context: () => CommandContext): void {
  merchantCommand(merchant, 'update', "change a merchant's settings")
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
    .action(async (opts: { mid: string; queueIfLowBalance?: boolean; queueWindow?: number }) => {
      const { db, out } = context();
      if (opts.queueIfLowBalance === undefined && opts.queueWindow === undefined) {
        throw new UsageError('nothing to change: give --queue-if-low-balance and/or --queue-window');
      }
      const updated = await updateQueueSettings(db(), opts.mid, {
        ...(opts.queueIfLowBalance !== undefined && { queueIfLowBalance: opts.queueIfLowBalance }),
        ...(opts.queueWindow !== undefined && { queueWindowSeconds: opts.queueWindow }),
      });
      if (!updated) throw noMerchant(opts.mid);
      showResult(out, merchantView(updated));
    });
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

function generatedMid(): string {
  return `M${randomInt(10 ** 11, 10 ** 12)}`;
}

function merchantView(m: Merchant): Record<string, string> {
  return {
    mid: m.mid,
    name: m.name,
    status: m.status,
    impsLimit: formatRupees(m.impsMaxPaise),
    upiLimit: formatRupees(m.upiMaxPaise),
    queueIfLowBalance: m.queueIfLowBalance ? 'on' : 'off',
    queueWindow: `${m.queueWindowSeconds / 3_600}h`,
    createdAt: m.createdAt.toISOString(),
  };
}
