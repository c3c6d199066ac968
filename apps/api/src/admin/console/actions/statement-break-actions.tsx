import type { Request, Response } from 'express';
import {
  decideStatementBreak,
  matchStatementLine,
  type DecideBreakOutcome,
  type MatchLineOutcome,
  type StatementBreakKey,
} from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import { formField, type Viewer } from '../console-session.js';
import { notFound } from '../find-routes.js';
import { done, personOf, requestAndShow, whyOr422, type ActionContext } from './action-helpers.js';

const BREAKS_PAGE = '/console/lists/statement-breaks';

/**
 * The actions on a statement break (docs/reconciliation.md, "The breaks page"). "Not ours" and "needs the
 * bank" move no money: an operator decides alone — except on a break that says money is missing
 * (`*_missing_at_bank`, `amount_mismatch`), where either is a request another approver approves, since it
 * could bury money the bank never paid or returned. "Match" moves money when the payout is not yet where the
 * line says (a payment of a payout in flight, a return of a SUCCESS one), so it is a request for a second
 * person; otherwise it is recorded at once. Each needs a note, for the audit log.
 */
export function statementBreakActions(context: ActionContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  for (const [path, decision] of [
    ['not-ours', 'not_ours'],
    ['needs-bank', 'needs_bank'],
  ] as const) {
    router.post(
      `/console/statement-breaks/:runId/:position/${path}`,
      allow('act', async (req, res, viewer) => {
        const key = breakKeyOr404(req, res, viewer);
        const why = key && whyOr422(req, res, viewer);
        if (!key || !why) return;
        const outcome = await decideStatementBreak(deps, { ...key, decision, note: why, by: personOf(viewer) });
        if (outcome.kind === 'planned') await requestAndShow(context, res, viewer, outcome.planned, why);
        else answer(res, viewer, outcome);
      }),
    );
  }
  router.post(
    '/console/statement-breaks/:runId/:position/match',
    allow('request', async (req, res, viewer) => {
      const key = breakKeyOr404(req, res, viewer);
      const why = key && whyOr422(req, res, viewer);
      if (!key || !why) return;
      const ackNo = formField(req, 'ackNo')?.trim() ?? '';
      if (!/^[0-9A-Za-z]{1,40}$/.test(ackNo)) {
        done(res, viewer, 422, 'Choose a payout', 'Choose the payout the line is, among its candidates.');
        return;
      }
      const outcome = await matchStatementLine(deps, { ...key, ackNo, note: why, by: personOf(viewer) });
      if (outcome.kind === 'planned') await requestAndShow(context, res, viewer, outcome.planned, why);
      else answer(res, viewer, outcome);
    }),
  );
  return router;
}

/** The run and position the path names, or a 404 page and undefined. */
function breakKeyOr404(req: Request, res: Response, viewer: Viewer): StatementBreakKey | undefined {
  const runId = String(req.params.runId);
  const position = String(req.params.position);
  if (/^[1-9][0-9]{0,17}$/.test(runId) && /^[1-9][0-9]{0,8}$/.test(position)) {
    return { runId: BigInt(runId), position: Number(position) };
  }
  notFound(res, viewer, `No statement run has a break ${runId}/${position}.`);
  return undefined;
}

/** Back to the breaks once decided; every refusal is a page that says why, and nothing changed. */
function answer(
  res: Response,
  viewer: Viewer,
  outcome: Exclude<DecideBreakOutcome | MatchLineOutcome, { kind: 'planned' }>,
) {
  switch (outcome.kind) {
    case 'decided':
    case 'matched':
      res.redirect(303, BREAKS_PAGE);
      return;
    case 'no-break':
      notFound(res, viewer, 'No statement run has that break. Nothing changed.');
      return;
    case 'already-decided':
      done(
        res,
        viewer,
        409,
        'Already decided',
        `The break is already decided (${outcome.decision.decision} by ${outcome.decision.decidedBy}). Nothing changed.`,
      );
      return;
    case 'not-allowed':
      done(res, viewer, 403, 'Not allowed', `${outcome.why}. Nothing changed.`);
      return;
    case 'refused':
      done(res, viewer, 409, 'Refused', `Refused, nothing changed: ${outcome.why}.`);
      return;
  }
}
