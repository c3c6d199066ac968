import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { isMid, isTransactionId, parseRupees, type Paise } from '@payout/domain';
import { UsageError } from './usage-error.js';

// Argument parsers for commander: each turns text into a checked value or a UsageError (exit status 2).

export function midArgument(text: string): string {
  if (!isMid(text)) throw new UsageError(`--mid must be 1–64 letters, digits, _ or -: got "${text}"`);
  return text;
}

export function transactionIdArgument(text: string): string {
  if (!isTransactionId(text)) throw new UsageError(`--TransactionID must be 1–30 digits: got "${text}"`);
  return text;
}

export function amountArgument(text: string): Paise {
  const paise = parseRupees(text);
  if (paise === undefined || paise <= 0n) {
    throw new UsageError(
      `--amount must be a positive rupee amount with at most two decimals (e.g. 1000.00): got "${text}"`,
    );
  }
  return paise;
}

export function nonEmptyArgument(name: string, max: number) {
  return (text: string): string => {
    const trimmed = text.trim();
    if (!trimmed || trimmed.length > max) throw new UsageError(`--${name} must be 1–${max} characters`);
    return trimmed;
  };
}

export function positiveIntegerArgument(name: string) {
  return (text: string): number => {
    if (!/^[1-9][0-9]{0,9}$/.test(text))
      throw new UsageError(`--${name} must be a positive whole number: got "${text}"`);
    return Number(text);
  };
}

/** A subcommand about one merchant, which `--mid` names. */
export function merchantCommand(group: Command, name: string, description: string): Command {
  return group.command(name).description(description).requiredOption('--mid <mid>', 'merchant MID', midArgument);
}

/** A subcommand about one payout, which `--mid` and the merchant's `--TransactionID` name. */
export function payoutCommand(group: Command, name: string, description: string): Command {
  return merchantCommand(group, name, description).requiredOption(
    '--TransactionID <id>',
    "the merchant's TransactionID",
    transactionIdArgument,
  );
}

/** The options of an operator command that changes something: who runs it and why, for the audit log. */
export interface AuditedOptions {
  operator?: string;
  note?: string;
}

/** Gives an operator command `--operator` (default: the login name) and `--note`, both for the audit log. */
export function audited(command: Command, doing: string): Command {
  return command
    .option('--note <why>', 'why, for the audit log', nonEmptyArgument('note', 400))
    .option(
      '--operator <name>',
      `who is ${doing} (default: the login name; recorded in the audit log)`,
      nonEmptyArgument('operator', 60),
    );
}

/** Who asked and why, as the use cases of @payout/use-cases take them, from {@link audited}'s options. */
export function requestedBy(opts: AuditedOptions, defaultReason: string) {
  // The audit log's actor is "cli:<name>": the console's are "console:<username>".
  const operator = opts.operator ?? userInfo().username;
  return { operator, actor: `cli:${operator}`, reason: opts.note ?? defaultReason };
}

/**
 * Gives a money command `--operator` (required: a console user, the request's maker) and `--note`: the
 * command makes a request that a second person approves (`pnpm cli approval approve`).
 */
export function requestedMoneyAction(command: Command): Command {
  return command
    .requiredOption(
      '--operator <name>',
      'the console user asking; another approver approves it with `pnpm cli approval approve`',
      nonEmptyArgument('operator', 64),
    )
    .option('--note <why>', 'why, for the approver and the audit log', nonEmptyArgument('note', 400));
}
