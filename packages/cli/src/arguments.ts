import type { Command } from 'commander';
import { CONSOLE_USERNAME_PATTERN, isMid, isTransactionId, parseRupees, type Paise } from '@payout/domain';
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

/**
 * Gives a command that acts as a person `--note`: why, for the audit log (and, for a money action, for the
 * approver). Who acts is the person whose credential the run holds (docs/operations.md, "Security model").
 */
export function noted(command: Command, what = 'why, for the audit log'): Command {
  return command.option('--note <why>', what, nonEmptyArgument('note', 400));
}

/** A console sign-in name: lower-case letters, digits, `.`, `_` and `-`. */
export function usernameArgument(text: string): string {
  if (!CONSOLE_USERNAME_PATTERN.test(text)) {
    throw new UsageError(
      `--name must be 1–64 lower-case letters, digits, . _ or -, starting with a letter or digit: got "${text}"`,
    );
  }
  return text;
}
