import { listDiscrepancies } from '@payout/db';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { ist, rupees } from '../../views/format.js';
import { LIST_LIMIT, renderListPage } from './list-page.js';

/** The open discrepancies: where the bank contradicted our books (docs/reconciliation.md). */
export function discrepanciesRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/lists/discrepancies',
    allow('read', async (_req, res) => {
      renderListPage(res, {
        title: 'Open discrepancies',
        intro: (
          <p>
            Where the bank contradicted a settled payout (or a pay-in report contradicted another). Each is resolved
            through the ledger with <code>pnpm cli discrepancy resolve</code> (docs/reconciliation.md).
          </p>
        ),
        columns: [
          { header: 'Kind', cell: (d) => d.kind },
          {
            header: 'Subject',
            cell: (d) => (d.payoutId === null ? d.ackNo : <a href={`/console/payouts/${d.ackNo}`}>{d.ackNo}</a>),
          },
          { header: 'TransactionID', cell: (d) => d.transactionId },
          { header: 'Amount', cell: (d) => rupees(d.amountPaise), numeric: true },
          { header: 'State here', cell: (d) => d.stateHere },
          { header: 'Source', cell: (d) => d.source },
          { header: 'Seen', cell: (d) => d.timesSeen, numeric: true },
          { header: 'First seen', cell: (d) => ist(d.createdAt) },
        ],
        rows: await listDiscrepancies(deps.db, { limit: LIST_LIMIT }),
        empty: 'No discrepancy is open.',
      });
    }),
  );
  return router;
}
