import { listApprovalRequests } from '@payout/db';
import { approvalStateAt } from '@payout/domain';
import { recheckOverride } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { approvalRequestOr404 } from '../console-guards.js';
import { renderPage } from '../render.js';
import { ApprovalListPage, ApprovalPage } from '../views/approval-pages.js';

/**
 * The approvals a second person works through (docs/operations.md, "Approvals"): the open requests and
 * the latest decided ones, and each request's page with the decisions this viewer may take.
 */
export function approvalsRoutes({ deps, allow }: ConsoleContext) {
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
      const request = await approvalRequestOr404(deps.db, req, res, viewer);
      if (!request) return;
      // An open override is asked of the rail again, so the approver sees its answer now beside the maker's.
      const open = approvalStateAt(request, new Date()) === 'REQUESTED';
      const recheck = open ? await recheckOverride(deps, request) : undefined;
      renderPage(
        res,
        200,
        <ApprovalPage
          viewer={viewer}
          request={request}
          selfApproval={deps.approvals.selfApproval}
          {...(recheck && { recheck })}
        />,
      );
    }),
  );
  return router;
}
