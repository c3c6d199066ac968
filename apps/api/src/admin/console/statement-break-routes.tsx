import { listStatementBreaks, listWaitingStatementRuns } from '@payout/db';
import { candidatesOf } from '@payout/use-cases';
import { statementBreakActions } from './actions/statement-break-actions.js';
import { exactRouter } from './console-authorization.js';
import type { Allow, ConsoleDependencies } from './console-dependencies.js';
import { wholeNumber } from './find-routes.js';
import { renderPage } from './render.js';
import { StatementBreaksPage } from './views/statement-breaks-page.js';

/** Statement breaks a page: one run of a bad file can leave thousands, so the list is paged, not loaded whole. */
const STATEMENT_BREAKS_PAGE_SIZE = 50;

/**
 * The breaks statement runs in effect left for a person (docs/reconciliation.md, "The breaks page"): the open
 * ones (`?decided=1` with the decided ones too), each bank line beside the payouts it may be, and the actions
 * on them; and the runs whose breaks wait for a second person's approval ("When a run takes effect").
 */
export function statementBreakRoutes(deps: ConsoleDependencies, allow: Allow) {
  const router = exactRouter();
  router.get(
    '/console/lists/statement-breaks',
    allow('read', async (req, res, viewer) => {
      const pageNumber = Math.max(1, wholeNumber(req.query.page, 1));
      const includeDecided = req.query.decided === '1';
      const { rows, hasNextPage } = await listStatementBreaks(deps.db, {
        page: pageNumber,
        pageSize: STATEMENT_BREAKS_PAGE_SIZE,
        includeDecided,
      });
      const waiting = await listWaitingStatementRuns(deps.db);
      // One small query per open break with a bank line: a page holds at most 50.
      const withCandidates = [];
      for (const row of rows) withCandidates.push({ ...row, candidates: await candidatesOf(deps.db, row.item) });
      renderPage(
        res,
        200,
        <StatementBreaksPage
          viewer={viewer}
          rows={withCandidates}
          waiting={waiting}
          pageNumber={pageNumber}
          pageSize={STATEMENT_BREAKS_PAGE_SIZE}
          hasNextPage={hasNextPage}
          includeDecided={includeDecided}
        />,
      );
    }),
  );
  router.use(statementBreakActions({ deps, allow }));
  return router;
}
