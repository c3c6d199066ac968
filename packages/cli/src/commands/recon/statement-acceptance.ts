import { acceptStatementFiles, type StatementFiles } from '@payout/recon';
import { UsageError } from '../../usage-error.js';
import type { StatementInput } from './statement-input.js';

export type AcceptedStatement = Extract<StatementFiles, { ok: true }>;

/**
 * The files checked whole (docs/reconciliation-formats.md): a file that fails a check (balances, account,
 * statement numbers running on from the last stored one and from file to file) refuses the run.
 */
export async function acceptedStatement(
  input: StatementInput,
  settlementAccount: string | undefined,
  lastStored: (account: string) => Promise<number | null>,
): Promise<AcceptedStatement> {
  const options = {
    ...(input.profile && { profile: input.profile }),
    ...(settlementAccount !== undefined && { settlementAccount }),
  };
  const refused = (reason: string) =>
    new UsageError(`${input.files.length === 1 ? `${input.files[0]!.name}: ` : ''}${reason}; nothing applied`);
  const read = acceptStatementFiles(input.files, options);
  if (!read.ok) throw refused(read.reason);
  // The files say which account they are for: their statement numbers must follow the last one stored for it.
  const account = identityOf(read)?.account;
  const lastSequence = account === undefined ? null : await lastStored(account);
  if (lastSequence === null) return read;
  const accepted = acceptStatementFiles(input.files, { ...options, lastSequence });
  if (!accepted.ok) throw refused(accepted.reason);
  return accepted;
}

/** The one account a run's statements are for, and its last statement number; none for several accounts. */
export function identityOf(statement: AcceptedStatement): { account: string; sequence: number | null } | undefined {
  const accounts = new Set(statement.statements.map((s) => s.account).filter((a): a is string => a !== null));
  if (accounts.size !== 1) return undefined;
  const numbers = statement.statements.map((s) => s.sequence).filter((n): n is number => n !== null);
  return { account: [...accounts][0]!, sequence: numbers.length ? Math.max(...numbers) : null };
}
