import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError } from '@payout/domain';
import type { PrismaClient } from '@payout/db';
import { validate } from '@payout/contract';
import {
  approvalJson,
  decideStatementBreak,
  matchStatementLine,
  requestApproval,
  type ApprovalSettings,
  type DecideBreakOutcome,
  type MatchLineOutcome,
  type PlannedRequest,
  type Person,
  type StatementBreakKey,
} from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { sendJson } from '../../http/send-json.js';
import { apiPersonOf, consoleAuthorization, exactRouter } from '../console/console-authorization.js';

const decisionBody = z.strictObject({
  why: z.string({ error: 'why is required: it goes to the audit log' }).trim().min(1).max(400),
});
const matchBody = decisionBody.extend({
  ackNo: z.string({ error: 'ackNo is required' }).regex(/^[0-9A-Za-z]{1,40}$/, { error: 'ackNo is an Ack_no' }),
});

/**
 * A statement break decided by a person with their own credential, as on the console's breaks page
 * (docs/reconciliation.md, "The breaks page"): `POST /admin/statements/:runId/breaks/:position/not-ours`,
 * `…/needs-bank` (`{why}`) and `…/match` (`{why, ackNo}`). A decision that moves money, or sets aside a
 * break of missing money, answers 202 with the request another approver approves; one taken at once
 * answers 200.
 */
export function statementBreakJsonRoutes(deps: { db: PrismaClient; approvals: ApprovalSettings }) {
  const router = exactRouter();
  const { allowJson } = consoleAuthorization(deps.db);
  const json = express.json({ limit: '4kb', strict: true });
  for (const [path, decision] of [
    ['not-ours', 'not_ours'],
    ['needs-bank', 'needs_bank'],
  ] as const) {
    router
      .route(`/admin/statements/:runId/breaks/:position/${path}`)
      .post(
        json,
        allowJson('act', async (req, res, viewer) => {
          const key = breakKey(req);
          const { why } = validate(decisionBody, req.body ?? {});
          const by = apiPersonOf(viewer);
          await answer(res, deps, by, why, await decideStatementBreak(deps, { ...key, decision, note: why, by }));
        }),
      )
      .all(methodNotAllowed);
  }
  router
    .route('/admin/statements/:runId/breaks/:position/match')
    .post(
      json,
      allowJson('request', async (req, res, viewer) => {
        const key = breakKey(req);
        const { why, ackNo } = validate(matchBody, req.body ?? {});
        const by = apiPersonOf(viewer);
        await answer(res, deps, by, why, await matchStatementLine(deps, { ...key, ackNo, note: why, by }));
      }),
    )
    .all(methodNotAllowed);
  return router;
}

/** The run and position the path names; any other spelling is no break. */
function breakKey(req: Request): StatementBreakKey {
  const runId = String(req.params.runId);
  const position = String(req.params.position);
  if (!/^[1-9][0-9]{0,17}$/.test(runId) || !/^[1-9][0-9]{0,8}$/.test(position)) {
    throw new AppError('NOT_FOUND', 'No statement run has that break.');
  }
  return { runId: BigInt(runId), position: Number(position) };
}

async function answer(
  res: Response,
  deps: { db: PrismaClient; approvals: ApprovalSettings },
  by: Person,
  why: string,
  outcome: DecideBreakOutcome | MatchLineOutcome,
): Promise<void> {
  switch (outcome.kind) {
    case 'planned':
      return requested(res, deps, by, why, outcome.planned);
    case 'decided':
    case 'matched':
      sendJson(res, 200, { error: false, status_code: 200, status: 'OK', decided: outcome.kind });
      return;
    case 'no-break':
      throw new AppError('NOT_FOUND', 'No statement run has that break.');
    case 'already-decided':
      throw new AppError(
        'CONFLICT',
        `The break is already decided (${outcome.decision.decision} by ${outcome.decision.decidedBy}); nothing changed.`,
      );
    case 'not-allowed':
      throw new AppError('FORBIDDEN', `Not allowed: ${outcome.why}.`);
    case 'refused':
      throw new AppError('CONFLICT', `Refused, nothing changed: ${outcome.why}.`);
  }
}

async function requested(
  res: Response,
  deps: { db: PrismaClient; approvals: ApprovalSettings },
  maker: Person,
  reason: string,
  planned: PlannedRequest,
): Promise<void> {
  const outcome = await requestApproval(deps, { planned, maker, reason });
  if (outcome.kind === 'not-allowed') throw new AppError('FORBIDDEN', `Not allowed: ${outcome.why}.`);
  sendJson(res, 202, { error: false, status_code: 202, status: 'OK', approval: approvalJson(outcome.request) });
}
