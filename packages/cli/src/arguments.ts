import { isMid, parseRupees, type Paise } from '@payout/domain';
import { UsageError } from './usage-error.js';

// Argument parsers for commander: each turns text into a checked value or a UsageError (exit status 2).

export function midArgument(text: string): string {
  if (!isMid(text)) throw new UsageError(`--mid must be 1–64 letters, digits, _ or -: got "${text}"`);
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

/** Who is acting, for the audit log: `--operator` or the login name, as "cli:<name>". */
export function cliActor(operator: string | undefined, login: () => string): string {
  return `cli:${operator ?? login()}`;
}
