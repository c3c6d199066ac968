import type { Request, Response } from 'express';
import { findApprovalRequest, listApprovalRequests, type ApprovalRequestView } from '@payout/db';
import { approveRequest, cancelRequest, rejectRequest, type DecideOutcome } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import { formField, type Viewer } from '../console-session.js';
import { notFound } from '../find-routes.js';
import { renderPage } from '../render.js';
import { ApprovalListPage, ApprovalPage } from '../views/approval-pages.js';
import { MessagePage } from '../views/layout.js';
import { done, personOf, reasonOf, type ActionContext } from './action-helpers.js';

const REQUEST_ID = /^[1-9][0-9]{0,18}$/;

/**
 * The approvals a second person works through (docs/operations.md, "Approvals"): the open requests, each
 * request's page, and the decisions — approve (it runs, once), reject, or cancel one's own.
 */
export function approvalRoutes(context: ActionContext) {
  const { allow, deps } = context;
  const router = exactRouter();

  router.get(
    '/console/approvals',
    allow('read', async (_req, res, viewer) => {
      const [open, all] = await Promise.all([
        listApprovalRequests(deps.db, { open: true, limit: 200 }),
        listApprovalRequests(deps.db, { limit: 50 }),
      ]);
      const recent = all.filter((r) => r.state !== 'REQUESTED');
      renderPage(res, 200, <ApprovalListPage viewer={viewer} open={open} recent={recent} />);
    }),
  );

  router.get(
    '/console/approvals/:id',
    allow('read', async (req, res, viewer) => {
      const request = await requestOr404(req, res, viewer);
      if (request) {
        renderPage(
          res,
          200,
          <ApprovalPage viewer={viewer} request={request} selfApproval={deps.approvals.selfApproval} />,
        );
      }
    }),
  );

  const decide =
    (take: typeof approveRequest) =>
    async (req: Request, res: Response, viewer: Viewer): Promise<void> => {
      const request = await requestOr404(req, res, viewer);
      if (!request) return;
      const note = reasonOf(formField(req, 'note'));
      const outcome = await take(deps, { id: request.id, by: personOf(viewer), ...(note && { note }) });
      showDecision(res, viewer, outcome);
    };
  router.post('/console/approvals/:id/approve', allow('approve', decide(approveRequest)));
  router.post(
    '/console/approvals/:id/reject',
    allow('approve', async (req, res, viewer) => {
      if (!reasonOf(formField(req, 'note'))) {
        done(res, viewer, 422, 'Say why', 'A rejection needs a note: the maker reads it.');
        return;
      }
      await decide(rejectRequest)(req, res, viewer);
    }),
  );
  router.post('/console/approvals/:id/cancel', allow('request', decide(cancelRequest)));

  async function requestOr404(req: Request, res: Response, viewer: Viewer): Promise<ApprovalRequestView | undefined> {
    const id = String(req.params.id);
    const request = REQUEST_ID.test(id) ? await findApprovalRequest(deps.db, BigInt(id)) : null;
    if (!request) notFound(res, viewer, `There is no request #${id}.`);
    return request ?? undefined;
  }
  return router;
}

function showDecision(res: Response, viewer: Viewer, outcome: DecideOutcome): void {
  switch (outcome.kind) {
    case 'executed':
      if (outcome.handOver) {
        renderPage(
          res,
          201,
          <MessagePage title="New token" viewer={viewer}>
            <p>Approved. Give this token to the merchant now: it is never shown again.</p>
            <p>
              <code class="secret">{outcome.handOver.token}</code>
            </p>
            <p>
              <a href={`/console/approvals/${outcome.request.id}`}>Back to request #{outcome.request.id.toString()}</a>
            </p>
          </MessagePage>,
        );
        return;
      }
      res.redirect(303, `/console/approvals/${outcome.request.id}`);
      return;
    case 'rejected':
    case 'cancelled':
      res.redirect(303, `/console/approvals/${outcome.request.id}`);
      return;
    case 'failed':
      done(
        res,
        viewer,
        409,
        'Refused on approval',
        `Nothing changed: ${outcome.why}. The request is closed as failed.`,
      );
      return;
    case 'expired':
      done(res, viewer, 409, 'Expired', 'The request waited longer than allowed and has expired; nothing changed.');
      return;
    case 'refused':
      done(res, viewer, 403, 'Not allowed', `Nothing changed: ${outcome.why}.`);
      return;
    case 'not-found':
      done(res, viewer, 404, 'Not found', 'There is no such request.');
      return;
  }
}
