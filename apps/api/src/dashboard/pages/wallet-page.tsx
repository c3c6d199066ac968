import { Router } from 'express';
import {
  MESSAGES,
  parseStatementQuery,
  statementBody,
  type StatementBody,
  type StatementEntryBody,
} from '@payout/contract';
import { findStatementPage, lookUpWallet, type LookupDatabases } from '@payout/db';
import { AppError, formatRupees, merchantMay, type FieldError, type Paise } from '@payout/domain';
import type { ApiDependencies } from '../../app.js';
import { ist } from '../../admin/console/views/format.js';
import { sendStatementCsv } from '../../wallet/statement-routes.js';
import { permit } from '../dashboard-gates.js';
import { DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { nextPageHref, parsedOrRefused, QueryErrors, textParameters, WideTable, withQuery } from './page-parts.js';

/** The statement's period as GET /api/statement names it (docs/api.md, "Statement"). */
const PERIOD = ['from', 'to'] as const;

/**
 * The wallet, GET /dashboard/wallet: the balances the wallet lookup reads (docs/api.md, "Lookups"), and the
 * main wallet's statement a page at a time, read and written by the statement endpoint's own parser, read
 * and body (docs/api.md, "Statement"): the same period rules (today so far unless given; at most 93 days),
 * the same entries and running balance. GET /dashboard/wallet/statement.csv is the endpoint's `format=csv`
 * file itself, for a role with `statements`.
 */
export function walletPageRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const dbs: LookupDatabases = { primary: deps.db, replica: deps.readDb };

  router.get(
    '/dashboard/wallet',
    permit('read', async (req, res, viewer) => {
      const given = textParameters(req.query, [...PERIOD, 'limit', 'cursor']);
      const query = parsedOrRefused(
        res,
        () => parseStatementQuery(req.query, new Date()),
        (errors) => <WalletPage viewer={viewer} given={given} errors={errors} />,
      );
      if (!query) return;
      const { period, format, limit, after } = query;
      if (format === 'csv') {
        res.redirect(303, withQuery('/dashboard/wallet/statement.csv', textParameters(req.query, PERIOD)));
        return;
      }
      const wallet = await lookUpWallet(dbs, viewer.merchant.id);
      const page = await findStatementPage(dbs, { merchantId: viewer.merchant.id, period, after, limit });
      if (!wallet || !page) throw new AppError('NOT_FOUND', MESSAGES.walletNotFound);
      const statement = statementBody(period, page);
      const later = nextPageHref('/dashboard/wallet', req.query, [...PERIOD, 'limit'], statement.next_cursor);
      renderDashboardPage(
        res,
        200,
        <WalletPage
          viewer={viewer}
          given={given}
          balances={wallet}
          statement={statement}
          period={period}
          postedAt={page.entries.map((e) => e.createdAt)}
          later={later}
        />,
      );
    }),
  );

  router.get(
    '/dashboard/wallet/statement.csv',
    permit('statements', async (req, res, viewer) => {
      const query = parsedOrRefused(
        res,
        () => parseStatementQuery({ ...req.query, format: 'csv' }, new Date()),
        (errors) => <WalletPage viewer={viewer} given={textParameters(req.query, PERIOD)} errors={errors} />,
      );
      if (query) await sendStatementCsv(res, dbs, viewer.merchant, query.period);
    }),
  );
  return router;
}

function WalletPage(props: {
  viewer: DashboardViewer;
  given: Record<string, string>;
  errors?: readonly FieldError[];
  balances?: { availablePaise: Paise; reservedPaise: Paise };
  statement?: StatementBody;
  /** The statement's period, shown in IST as the rest of the dashboard shows times. */
  period?: { from: Date; to: Date | null };
  /** Each entry's posting time, for showing it in IST as the rest of the dashboard does. */
  postedAt?: readonly Date[];
  later?: string | undefined;
}) {
  const { given, statement: s, period, balances } = props;
  const mayDownload = merchantMay(props.viewer.user.role, 'statements');
  return (
    <DashboardPage title="Wallet" viewer={props.viewer}>
      {balances && (
        <dl class="facts">
          <dt>Available balance</dt>
          <dd>₹ {formatRupees(balances.availablePaise)}</dd>
          <dt>Reserved for payouts in progress</dt>
          <dd>₹ {formatRupees(balances.reservedPaise)}</dd>
        </dl>
      )}
      <h2>Statement</h2>
      <form method="get" action="/dashboard/wallet" class="filters">
        <label>
          From (IST date) <input type="date" name="from" value={given.from ?? ''} />
        </label>
        <label>
          Before (IST date) <input type="date" name="to" value={given.to ?? ''} />
        </label>
        <button type="submit">Show</button>
        {mayDownload && (
          <button type="submit" formaction="/dashboard/wallet/statement.csv">
            Download CSV
          </button>
        )}
      </form>
      {props.errors && <QueryErrors errors={props.errors} />}
      {s && period && (
        <>
          <p>
            From {ist(period.from)} to {period.to ? ist(period.to) : 'now'}: opening balance ₹ {s.opening_balance},
            closing balance ₹ {s.closing_balance}.
          </p>
          {s.entries.length === 0 ? (
            <p class="empty">No entries in this period{given.cursor ? ' after these' : ''}.</p>
          ) : (
            <StatementTable entries={s.entries} postedAt={props.postedAt ?? []} />
          )}
        </>
      )}
      <p>
        {given.cursor && <a href={withQuery('/dashboard/wallet', { from: given.from, to: given.to })}>First entries</a>}
        {given.cursor && props.later && ' · '}
        {props.later && <a href={props.later}>Later entries</a>}
      </p>
    </DashboardPage>
  );
}

function StatementTable(props: { entries: readonly StatementEntryBody[]; postedAt: readonly Date[] }) {
  return (
    <WideTable caption="Entries, oldest first">
      <thead>
        <tr>
          <th scope="col">Posted</th>
          <th scope="col">Type</th>
          <th scope="col" class="num">
            Amount (₹)
          </th>
          <th scope="col" class="num">
            Balance after (₹)
          </th>
          <th scope="col">Reference</th>
        </tr>
      </thead>
      <tbody>
        {props.entries.map((e, i) => (
          <tr>
            <td>{props.postedAt[i] ? ist(props.postedAt[i]) : e.time}</td>
            <td>
              {e.type}
              <br />
              <span class="hint">{e.description}</span>
            </td>
            <td class="num">{e.amount}</td>
            <td class="num">{e.balance_after}</td>
            <td>
              {e.TransactionID && e.type.startsWith('PAYOUT') ? (
                <a href={`/dashboard/payouts/${e.TransactionID}`}>{e.TransactionID}</a>
              ) : (
                (e.TransactionID ?? e.reference ?? '—')
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </WideTable>
  );
}
