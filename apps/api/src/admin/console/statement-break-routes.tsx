import { listStatementBreaks } from '@payout/db';
import { exactRouter } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { renderListPage, wholeNumber } from './find-routes.js';
import { ist } from './views/format.js';

/** Statement breaks a page: one run of a bad file can leave thousands, so the list is paged, not loaded whole. */
const STATEMENT_BREAKS_PAGE_SIZE = 50;

/** The breaks statement runs left for a person (docs/reconciliation.md). */
export function statementBreakRoutes(deps: ConsoleDependencies) {
  const router = exactRouter();
  router.get('/console/lists/statement-breaks', async (req, res) => {
    const pageNumber = Math.max(1, wholeNumber(req.query.page, 1));
    const { rows, hasNextPage } = await listStatementBreaks(deps.db, {
      page: pageNumber,
      pageSize: STATEMENT_BREAKS_PAGE_SIZE,
    });
    const pageLink = (n: number) => `/console/lists/statement-breaks${n === 1 ? '' : `?page=${n}`}`;
    renderListPage(res, {
      title: 'Statement breaks',
      intro: (
        <p>
          What statement runs (<code>pnpm cli recon statement</code>) left for a person, newest run first: the bank and
          our books disagree, or the statement says what cannot be, and nothing was applied (docs/reconciliation.md).
          Page {pageNumber}, {STATEMENT_BREAKS_PAGE_SIZE} breaks a page.
        </p>
      ),
      columns: [
        { header: 'Run', cell: ({ run }) => `${run.id} (${ist(run.startedAt)}, ${run.fileName})` },
        { header: 'Kind', cell: ({ item }) => item.kind },
        {
          header: 'Reference',
          cell: ({ item }) =>
            item.books ? <a href={`/console/payouts/${item.reference}`}>{item.reference}</a> : item.reference,
        },
        {
          header: 'Bank says',
          cell: ({ item }) =>
            item.bank
              ? `line ${item.bank.line}: ${item.bank.type} ₹ ${item.bank.amount}, UTR ${item.bank.utr}, ${item.bank.value_date}`
              : 'nothing',
        },
        {
          header: 'Books say',
          cell: ({ item }) =>
            item.books
              ? `${item.books.state} ₹ ${item.books.amount}${item.books.utr ? `, UTR ${item.books.utr}` : ''}`
              : 'nothing',
        },
      ],
      rows,
      empty: pageNumber === 1 ? 'No statement run has left a break.' : `Page ${pageNumber} is past the last break.`,
      pages: (
        <nav aria-label="Pages of statement breaks">
          {pageNumber > 1 && (
            <a href={pageLink(pageNumber - 1)} rel="prev">
              Previous page
            </a>
          )}{' '}
          {hasNextPage && (
            <a href={pageLink(pageNumber + 1)} rel="next">
              Next page
            </a>
          )}
        </nav>
      ),
    });
  });

  return router;
}
