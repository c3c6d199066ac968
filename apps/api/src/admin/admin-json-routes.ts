import type { Queue } from 'bullmq';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError, formatRupees, isMid } from '@payout/domain';
import { findPayoutStory, listApprovalRequests, type PrismaClient } from '@payout/db';
import { approvalJson, approveRequest, cancelRequest, rejectRequest, type ApprovalDeps } from '@payout/use-cases';
import { findPayoutJobs } from '@payout/queue';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';
import { transactionIdField, validate } from '@payout/contract';
import { presentsAdminToken, requireAdmin } from './admin-auth.js';
import { apiPersonOf, consoleAuthorization, exactRouter } from './console/console-authorization.js';
import { viewerOf, type Viewer } from './console/console-session.js';
import { sendDecision } from './json/decision-answer.js';

const storyQuery = z.object({
  mid: z.string({ error: 'mid is required' }).refine(isMid, { error: 'mid must be a well-formed MID' }),
  TransactionID: transactionIdField,
});

const decisionBody = z.strictObject({
  note: z.string().trim().min(1).max(400).optional(),
  /** The approver's second factor: a current code from their authenticator, or a recovery code. */
  code: z.string().trim().min(1).max(20).optional(),
});

const REQUEST_ID = /^[1-9][0-9]{0,18}$/;

/**
 * For scripts, behind the admin token: GET /admin/payouts?mid=…&TransactionID=… answers "where is my
 * money?" with a payout's whole story (events with the rail's answers, ledger legs, webhook attempts,
 * queue jobs) as JSON, and GET /admin/approvals lists the money actions waiting for a second person.
 * Deciding one needs a person: POST /admin/approvals/:id/approve|reject takes that person's own bearer
 * credential or a console session (its cookie and its CSRF token in X-CSRF-Token), never the admin token
 * alone, which names nobody.
 */
export function adminJsonRoutes(deps: { db: PrismaClient; payoutQueue: Queue; adminToken: string } & ApprovalDeps) {
  const router = exactRouter();
  router
    .route('/admin/payouts')
    .get(requireAdmin(deps.adminToken), async (req, res) => {
      const { mid, TransactionID } = validate(storyQuery, req.query);
      const story = await findPayoutStory(deps.db, mid, TransactionID);
      if (!story) throw new AppError('NOT_FOUND', 'No such payout for this MID.', { details: { TransactionID } });
      let jobs: unknown;
      try {
        jobs = await findPayoutJobs(deps.payoutQueue, story.payout.id, story.payout.inquiryAttempts);
      } catch (error) {
        jobs = { unavailable: (error as Error).message };
      }
      sendJson(res, 200, {
        error: false,
        status_code: 200,
        status: 'OK',
        payout: { ...story.payout, amount: formatRupees(story.payout.amountPaise) },
        events: story.events,
        ledger: story.ledger.map((l) => ({ ...l, amount: formatRupees(l.amountPaise) })),
        webhooks: story.webhooks,
        discrepancies: story.discrepancies.map((d) => ({ ...d, amount: formatRupees(d.amountPaise) })),
        jobs,
      });
    })
    .all(methodNotAllowed);

  const holdsToken = presentsAdminToken(deps.adminToken);
  router
    .route('/admin/approvals')
    .get(async (req, res) => {
      if (!holdsToken(req) && !viewerOf(res))
        throw new AppError('UNAUTHENTICATED', 'Admin credentials are missing or invalid.');
      const open = await listApprovalRequests(deps.db, { open: true, limit: 500 });
      sendJson(res, 200, { error: false, status_code: 200, status: 'OK', approvals: open.map(approvalJson) });
    })
    .all(methodNotAllowed);

  const { allowJson } = consoleAuthorization(deps.db);
  // allowJson has checked the person: their bearer credential, or their console session and its CSRF token.
  const decide = (take: typeof approveRequest) => async (req: Request, res: Response, viewer: Viewer) => {
    const person = apiPersonOf(viewer);
    const id = String(req.params.id);
    if (!REQUEST_ID.test(id)) throw new AppError('NOT_FOUND', 'No such request.');
    const { note, code } = validate(decisionBody, req.body ?? {});
    const outcome = await take(deps, {
      id: BigInt(id),
      by: person,
      ...(note && { note }),
      ...(code !== undefined && { secondFactorCode: code }),
    });
    sendDecision(res, outcome);
  };
  const json = express.json({ limit: '4kb', strict: true });
  router
    .route('/admin/approvals/:id/approve')
    .post(json, allowJson('approve', decide(approveRequest)))
    .all(methodNotAllowed);
  router
    .route('/admin/approvals/:id/reject')
    .post(json, allowJson('approve', decide(rejectRequest)))
    .all(methodNotAllowed);
  // POST /admin/approvals/:id/cancel: the maker withdraws their own open request (the use case refuses anyone else).
  router
    .route('/admin/approvals/:id/cancel')
    .post(json, allowJson('request', decide(cancelRequest)))
    .all(methodNotAllowed);
  return router;
}
