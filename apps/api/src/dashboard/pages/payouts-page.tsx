import { Router, type Response } from 'express';
import {
  istTimestamp,
  parsePayoutListQuery,
  payoutListBody,
  payoutStatusBody,
  type PayoutListFilters,
  type PayoutStatusBody,
} from '@payout/contract';
import { findPayoutPage, type LookupDatabases } from '@payout/db';
import { AppError, merchantMay, type FieldError } from '@payout/domain';
import type { ApiDependencies } from '../../app.js';
import { csvLine } from '../../admin/console/csv.js';
import { ist } from '../../admin/console/views/format.js';
import { written } from '../../wallet/statement-routes.js';
import { permit } from '../dashboard-gates.js';
import { DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { nextPageHref, parsedOrRefused, QueryErrors, textParameters, WideTable, withQuery } from './page-parts.js';

/** The list's filters as GET /api/payouts names them (docs/api.md, "Listing payouts"). */
const FILTERS = ['from', 'to', 'status', 'mode', 'BatchID', 'bank'] as const;

/** Payouts read per statement of the CSV: what the file holds in memory at once. */
const CSV_BATCH = 1000;

/** The CSV's columns: when it was accepted, then the status lookup's members (docs/api.md, "Response bodies"). */
const CSV_COLUMNS = [
  'AcceptedAt',
  'TransactionID',
  'Ack_no',
  'mode',
  'status',
  'Amount',
  'Bankriff',
  'bank',
  'reason_code',
  'account',
  'ifsc',
  'message',
];

/**
 * The dashboard's home, GET /dashboard: the merchant's payouts newest first, a page at a time, filtered as
 * GET /api/payouts is (docs/api.md, "Listing payouts") — the same query parser, the same read from the
 * replica when it has caught up, the same body (each row is the payout's status lookup), so the page and the
 * API cannot disagree. GET /dashboard/payouts.csv: every payout the same filters list, as a file.
 */
export function payoutsPageRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const dbs: LookupDatabases = { primary: deps.db, replica: deps.readDb };

  router.get(
    '/dashboard',
    permit('read', async (req, res, viewer) => {
      const given = textParameters(req.query, [...FILTERS, 'limit', 'cursor']);
      const query = parsedOrRefused(
        res,
        () => parsePayoutListQuery(req.query),
        (errors) => <PayoutsPage viewer={viewer} given={given} errors={errors} />,
      );
      if (!query) return;
      const { filters, limit, after } = query;
      const page = await findPayoutPage(dbs, { merchantId: viewer.merchant.id, filters, after, limit });
      const body = payoutListBody(page, filters);
      const rows = page.payouts.map((p, i) => ({ acceptedAt: p.createdAt, lookup: body.payouts[i]! }));
      const older = nextPageHref('/dashboard', req.query, [...FILTERS, 'limit'], body.next_cursor);
      renderDashboardPage(
        res,
        200,
        <PayoutsPage viewer={viewer} given={given} rows={rows} older={older} first={!after} />,
      );
    }),
  );

  router.get(
    '/dashboard/payouts.csv',
    permit('statements', async (req, res, viewer) => {
      const extra = ['limit', 'cursor'].filter((name) => req.query[name] !== undefined);
      const query = parsedOrRefused(
        res,
        () => {
          if (extra.length > 0) {
            throw AppError.validation(
              extra.map((field) => ({
                field,
                message: `${field} pages the list: the CSV holds every payout it lists`,
              })),
            );
          }
          return parsePayoutListQuery(req.query);
        },
        (errors) => <PayoutsPage viewer={viewer} given={textParameters(req.query, FILTERS)} errors={errors} />,
      );
      if (query) await sendPayoutsCsv(res, dbs, viewer, query.filters);
    }),
  );
  return router;
}

/**
 * Every payout the filters list, newest first, walked a page at a time by the list's own read (each page
 * starts after the last payout of the one before), each page written before the next is read: a merchant
 * with millions of payouts never has more than {@link CSV_BATCH} in memory, and one who hangs up stops the
 * reading. Cells go through the console's csvLine, which defuses what a spreadsheet would run as a formula.
 */
async function sendPayoutsCsv(
  res: Response,
  dbs: LookupDatabases,
  viewer: DashboardViewer,
  filters: PayoutListFilters,
): Promise<void> {
  res
    .status(200)
    .setHeader('Content-Type', 'text/csv; charset=utf-8')
    .setHeader('Content-Disposition', `attachment; filename="${viewer.merchant.mid}-payouts.csv"`)
    .setHeader('Cache-Control', 'no-store');
  let chunk = csvLine(CSV_COLUMNS);
  let after: { createdAt: Date; id: bigint } | null = null;
  for (;;) {
    const page = await findPayoutPage(dbs, { merchantId: viewer.merchant.id, filters, after, limit: CSV_BATCH });
    for (const p of page.payouts) chunk += csvLine(payoutCsvFields(p.createdAt, payoutStatusBody(p)));
    if (!(await written(res, chunk))) return;
    chunk = '';
    const last = page.payouts.at(-1);
    if (!page.more || !last) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  res.end();
}

/** One payout's CSV line: {@link CSV_COLUMNS}, absent members empty. */
export function payoutCsvFields(acceptedAt: Date, p: PayoutStatusBody): string[] {
  return [
    istTimestamp(acceptedAt),
    p.TransactionID,
    p.Ack_no,
    p.mode,
    p.status,
    p.Amount,
    p.Bankriff,
    p.bank ?? '',
    p.reason_code ?? '',
    p.account,
    p.ifsc,
    p.message,
  ];
}

interface PayoutRow {
  acceptedAt: Date;
  lookup: PayoutStatusBody;
}

function PayoutsPage(props: {
  viewer: DashboardViewer;
  given: Record<string, string>;
  errors?: readonly FieldError[];
  rows?: readonly PayoutRow[];
  older?: string | undefined;
  first?: boolean;
}) {
  const { given, rows } = props;
  return (
    <DashboardPage title="Payouts" viewer={props.viewer}>
      <PayoutFilters given={given} mayDownload={merchantMay(props.viewer.user.role, 'statements')} />
      {props.errors && <QueryErrors errors={props.errors} />}
      {rows && rows.length === 0 && <p class="empty">No payouts{props.first ? '' : ' older than these'}.</p>}
      {rows && rows.length > 0 && (
        <WideTable caption={props.first ? 'Newest first' : 'Older payouts, newest first'}>
          <thead>
            <tr>
              <th scope="col">Accepted</th>
              <th scope="col">TransactionID</th>
              <th scope="col">Mode</th>
              <th scope="col" class="num">
                Amount (₹)
              </th>
              <th scope="col">Status</th>
              <th scope="col">Message</th>
              <th scope="col">Bank reference</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ acceptedAt, lookup: p }) => (
              <tr>
                <td>{ist(acceptedAt)}</td>
                <td>
                  <a href={`/dashboard/payouts/${p.TransactionID}`}>{p.TransactionID}</a>
                </td>
                <td>{p.mode}</td>
                <td class="num">{p.Amount}</td>
                <td>
                  <span class={`badge badge-${p.status.toLowerCase()}`}>{p.status}</span>
                </td>
                <td>{p.message}</td>
                <td>{p.Bankriff || '—'}</td>
              </tr>
            ))}
          </tbody>
        </WideTable>
      )}
      <p>
        {!props.first && <a href={withQuery('/dashboard', filtersOf(given))}>Newest</a>}
        {!props.first && props.older && ' · '}
        {props.older && <a href={props.older}>Older</a>}
      </p>
    </DashboardPage>
  );
}

function filtersOf(given: Record<string, string>): Record<string, string | undefined> {
  return Object.fromEntries(FILTERS.map((name) => [name, given[name]]));
}

/**
 * The list's filters as a GET form (works without JavaScript): the same parameters as GET /api/payouts, so
 * a filtered page's address is that list's query. The CSV button sends them to the download instead.
 */
function PayoutFilters({ given, mayDownload }: { given: Record<string, string>; mayDownload: boolean }) {
  return (
    <form method="get" action="/dashboard" class="filters">
      <label>
        From (IST date) <input type="date" name="from" value={given.from ?? ''} />
      </label>
      <label>
        Before (IST date) <input type="date" name="to" value={given.to ?? ''} />
      </label>
      <label>
        Status{' '}
        <select name="status">
          <option value="">any</option>
          {['Pending', 'Success', 'Failed'].map((s) => (
            <option selected={given.status === s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Mode{' '}
        <select name="mode">
          <option value="">any</option>
          {['IMPS', 'UPI'].map((m) => (
            <option selected={given.mode === m}>{m}</option>
          ))}
        </select>
      </label>
      <label>
        BatchID <input name="BatchID" inputMode="numeric" size={14} value={given.BatchID ?? ''} />
      </label>
      <label>
        Bank <input name="bank" size={10} value={given.bank ?? ''} />
      </label>
      <button type="submit">List</button>
      {mayDownload && (
        <button type="submit" formaction="/dashboard/payouts.csv">
          Download CSV
        </button>
      )}
    </form>
  );
}
