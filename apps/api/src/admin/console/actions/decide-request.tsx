import type { Request, Response } from 'express';
import { approveRequest, cancelRequest, rejectRequest, type DecideOutcome } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { approvalRequestOr404, reasonOf, reasonOr422, showMessage } from '../console-guards.js';
import { formField, type Viewer } from '../console-session.js';
import { personOf } from './action-helpers.js';

/** A rejection's note is required: the maker reads it. */
const REJECTION_NOTE = { field: 'note', missing: 'A rejection needs a note: the maker reads it.' };

/**
 * The decisions on a request (docs/operations.md, "Approvals"): an approver approves it with a current code
 * of their second factor (it runs, once) or rejects it with a note; its maker may cancel it.
 */
export function decideRequestRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  const decide =
    (take: typeof approveRequest) =>
    async (req: Request, res: Response, viewer: Viewer): Promise<void> => {
      const request = await approvalRequestOr404(deps.db, req, res, viewer);
      if (!request) return;
      const note = reasonOf(formField(req, 'note'));
      const code = formField(req, 'code')?.trim();
      const outcome = await take(deps, {
        id: request.id,
        by: personOf(viewer),
        ...(note && { note }),
        ...(code && { secondFactorCode: code }),
      });
      showDecision(res, viewer, outcome);
    };
  router.post('/console/approvals/:id/approve', allow('approve', decide(approveRequest)));
  router.post(
    '/console/approvals/:id/reject',
    allow('approve', async (req, res, viewer) => {
      if (!reasonOr422(req, res, viewer, REJECTION_NOTE)) return;
      await decide(rejectRequest)(req, res, viewer);
    }),
  );
  router.post('/console/approvals/:id/cancel', allow('request', decide(cancelRequest)));
  return router;
}

function showDecision(res: Response, viewer: Viewer, outcome: DecideOutcome): void {
  switch (outcome.kind) {
    case 'executed':
    case 'rejected':
    case 'cancelled':
      res.redirect(303, `/console/approvals/${outcome.request.id}`);
      return;
    case 'failed':
      showMessage(
        res,
        viewer,
        409,
        'Refused on approval',
        `Nothing changed: ${outcome.why}. The request is closed as failed.`,
      );
      return;
    case 'expired':
      showMessage(
        res,
        viewer,
        409,
        'Expired',
        'The request waited longer than allowed and has expired; nothing changed.',
      );
      return;
    case 'refused':
      showMessage(res, viewer, 403, 'Not allowed', `Nothing changed: ${outcome.why}.`);
      return;
    case 'second-factor':
      if (outcome.waitSeconds !== undefined) res.setHeader('Retry-After', String(outcome.waitSeconds));
      showMessage(
        res,
        viewer,
        outcome.waitSeconds !== undefined ? 429 : 403,
        'Code needed',
        `Nothing changed and the request still waits: ${outcome.why}`,
      );
      return;
    case 'not-found':
      showMessage(res, viewer, 404, 'Not found', 'There is no such request.');
      return;
  }
}
