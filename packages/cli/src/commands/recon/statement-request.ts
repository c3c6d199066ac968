import { linePlace } from '@payout/recon';
import type { StatementRunJson } from './statement-report.js';

/** The breaks left for a person: all but the lines the request will settle or reverse once approved. */
export function breaksLeft(run: StatementRunJson) {
  const requested = new Set(run.approval ? run.plannedActions.map(linePlace) : []);
  return run.breaks.filter((b) => !(b.bank && requested.has(linePlace(b.bank))));
}
