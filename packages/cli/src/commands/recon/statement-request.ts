import type { ApprovalRequestView, StatementRunReport } from '@payout/db';
import { linePlace } from '@payout/recon';
import { planStatementApplication, requestApproval, type Person } from '@payout/use-cases';
import type { CommandContext } from '../../context.js';
import { CommandFailure } from '../../usage-error.js';

/**
 * `--apply`: the run's planned settlements and reversals become one request for a second person
 * (docs/reconciliation.md, "Planning and applying"); none when the statement settles and reverses nothing.
 */
export async function requestApplication(
  context: CommandContext,
  report: StatementRunReport,
  fileName: string,
  maker: Person,
): Promise<ApprovalRequestView | undefined> {
  const plan = await planStatementApplication({ db: context.db() }, { report, fileName });
  if (plan.kind === 'nothing-to-apply') return undefined;
  const outcome = await requestApproval(
    { db: context.db(), approvals: context.approvals },
    { planned: plan.planned, maker, reason: `statement ${fileName}, run ${report.runId}` },
  );
  if (outcome.kind === 'not-allowed') throw new CommandFailure(`${outcome.why}; nothing requested`);
  return outcome.request;
}

/** The breaks left for a person: all but the lines the request will settle or reverse once approved. */
export function breaksLeft(report: StatementRunReport, approval: ApprovalRequestView | undefined) {
  const requested = new Set(approval ? report.plannedActions.map(linePlace) : []);
  return report.breaks.filter((b) => !(b.bank && requested.has(linePlace(b.bank))));
}
