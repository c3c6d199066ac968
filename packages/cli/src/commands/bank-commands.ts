import type { Command } from 'commander';
import { BANK_CONTROL_ACTIONS, type BankControlAction } from '@payout/use-cases';
import { nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, showResult, type Row } from '../output.js';

/** One bank as GET /admin/banks answers it. */
interface BankAnswer {
  bank: string;
  modes: string[];
  enabled: boolean;
  weight: number;
  maxTps: number;
  state: string;
  reason?: string | null;
  changedBy?: string;
  changedAt?: string;
  health: { mode: string; score: number | null; eliminated: boolean }[];
  downtimes: { mode: string; status: string; since: string }[];
}

/**
 * `bank list|pause|drain|resume` (docs/operations.md, "Banks: pausing, draining, pinning"): each acts as you,
 * through the admin listener, like the console's day page. Pausing, draining and resuming move no money:
 * one person does them, and the audit log keeps who and why.
 */
export function registerBankCommands(program: Command, context: () => CommandContext): void {
  const bank = program
    .command('bank')
    .description('the sponsor banks: their health, holds and downtimes; pause, drain, resume one');

  bank
    .command('list')
    .description("each configured bank's hold, health per mode and open downtimes")
    .action(async () => {
      const { admin, out } = context();
      const answer = await admin().get<{ banks: BankAnswer[] }>('/admin/banks');
      show(out, answer, [{ rows: answer.banks.map(bankRow) }]);
    });

  const what: Record<BankControlAction, string> = {
    pause: 'stop every call to a bank: no new payout goes to it, and those it holds wait until it is resumed',
    drain: 'send no new payout to a bank; those it holds are still asked about until they settle',
    resume: 'route to a paused or draining bank again, as its health says',
  };
  for (const action of Object.keys(BANK_CONTROL_ACTIONS) as BankControlAction[]) {
    bank
      .command(`${action} <bank>`)
      .description(what[action])
      .requiredOption('--reason <why>', 'why, for the audit log', nonEmptyArgument('reason', 400))
      .action(async (name: string, opts: { reason: string }) => {
        const { admin, out } = context();
        const answer = await admin().post<{ bank: string; state: string; from?: string; changed: boolean }>(
          `/admin/banks/${encodeURIComponent(name)}/${action}`,
          { why: opts.reason },
        );
        showResult(
          out,
          { bank: answer.bank, state: answer.state, from: answer.from ?? answer.state, changed: answer.changed },
          [!answer.changed && `${answer.bank} was ${answer.state} already: nothing changed.`],
        );
      });
  }
}

function bankRow(b: BankAnswer): Row {
  const score = (mode: string) => {
    const h = b.health.find((row) => row.mode === mode);
    if (!h) return 'not scored';
    return `${h.score === null ? 'too few outcomes' : h.score.toFixed(2)}${h.eliminated ? ' (eliminated)' : ''}`;
  };
  return {
    bank: b.bank,
    state: b.state,
    enabled: b.enabled,
    modes: b.modes.join(' '),
    weight: b.weight,
    health: b.modes.map((mode) => `${mode} ${score(mode)}`).join('; '),
    downtimes: b.downtimes.map((d) => `${d.mode} ${d.status} since ${d.since}`).join('; ') || 'none',
    reason: b.reason ?? null,
  };
}
