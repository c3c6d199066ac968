import { listOperatorActions } from '@payout/db';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { renderPage } from '../render.js';
import { AuditTable } from '../views/audit-table.js';
import { Page } from '../views/layout.js';
import { LIST_LIMIT } from './lists/list-page.js';

/** The audit log, GET /console/audit: every operator action, from the console and the CLI, newest first. */
export function auditLogRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/audit',
    allow('read', async (_req, res, viewer) => {
      const actions = await listOperatorActions(deps.db, { limit: LIST_LIMIT });
      renderPage(
        res,
        200,
        <Page title="Audit log" viewer={viewer}>
          <p>Every operator action, from the console and the CLI, newest first.</p>
          <AuditTable actions={actions} empty="No operator action yet." />
        </Page>,
      );
    }),
  );
  return router;
}
