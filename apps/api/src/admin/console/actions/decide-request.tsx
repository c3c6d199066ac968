import type { Request, Response } from 'express';
import { approveRequest, cancelRequest, rejectRequest, type DecideOutcome } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { approvalRequestOr404, reasonOf, reasonOr422, showMessage } from '../console-guards.js';
import { formField, type Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { MessagePage } from '../views/layout.js';
import { personOf } from './action-helpers.js';

/** A rejection's note is required: the maker reads it. */
const REJECTION_NOTE = { field: 'note', missing: 'A rejection needs a note: the maker reads it.' };

/**
 * The decisions on a request (docs/operations.md, "Approvals"): an approver approves it (it runs, once)
 * or rejects it with a note; its maker may cancel it.
 */
export function decideRequestRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  const decide =
    (take: typeof approveRequest) =>
    async (req: Request, res: Response, viewer: Viewer): Promise<void> => {
      const request = await approvalRequestOr404(deps.db, req, res, viewer);
      if (!request) return;
      const note = reasonOf(formField(req, 'note'));
      const outcome = await take(deps, { id: request.id, by: personOf(viewer), ...(note && { note }) });
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
      if (!outcome.handOver) res.redirect(303, `/console/approvals/${outcome.request.id}`);
      else if ('token' in outcome.handOver) showToken(res, viewer, outcome.request.id, outcome.handOver.token);
      else showOneTimePassword(res, viewer, outcome.request.id, outcome.handOver);
      return;
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
    case 'not-found':
      showMessage(res, viewer, 404, 'Not found', 'There is no such request.');
      return;
  }
}

/** An approved new token, shown once to the approver who hands it over. */
function showToken(res: Response, viewer: Viewer, requestId: bigint, token: string): void {
  renderPage(
    res,
    201,
    <MessagePage title="New token" viewer={viewer}>
      <p>Approved. Give this token to the merchant now: it is never shown again.</p>
      <p>
        <code class="secret">{token}</code>
      </p>
      <p>
        <a href={`/console/approvals/${requestId}`}>Back to request #{requestId.toString()}</a>
      </p>
    </MessagePage>,
  );
}

/**
 * An approved person's one-time password, shown once to the approver, who hands it over. The person must
 * choose their own at first sign-in, so the approver cannot go on using it unnoticed (docs/operations.md,
 * "Security model").
 */
function showOneTimePassword(
  res: Response,
  viewer: Viewer,
  requestId: bigint,
  handOver: { username: string; oneTimePassword: string },
): void {
  renderPage(
    res,
    201,
    <MessagePage title="One-time password" viewer={viewer}>
      <p>
        Approved. Give {handOver.username} this one-time password now: it is never shown again, and they must choose
        their own when they first sign in.
      </p>
      <p>
        <code class="secret">{handOver.oneTimePassword}</code>
      </p>
      <p>
        <a href={`/console/approvals/${requestId}`}>Back to request #{requestId.toString()}</a>
      </p>
    </MessagePage>,
  );
}
