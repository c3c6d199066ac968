import { type Request } from 'express';
import { findMerchantOverview, listOperatorActions, listPayouts, payoutsForStatement } from '@payout/db';
import { formatRupees, isMid, type PayoutStatus } from '@payout/domain';
import { exactRouter } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { csvLine } from './csv.js';
import { merchantNotFound, merchantOr404, signedIn } from './find-routes.js';
import { renderPage } from './render.js';
import { istDate, istDayStart, istMidnight } from './views/format.js';
import { ListPage, MessagePage } from './views/layout.js';
import { MerchantPage } from './views/merchant-page.js';
import { payoutColumns } from './views/payout-columns.js';
import { PayoutFilterForm } from './views/payout-filter-form.js';

const DAY_MS = 86_400_000;
/** A statement covers at most a year: longer ones are asked for in parts. */
const MAX_STATEMENT_DAYS = 366;

/** A merchant's page, their payouts by status and date, and the CSV statement. */
export function merchantRoutes(deps: ConsoleDependencies) {
  const router = exactRouter();

  router.get('/console/merchants/:mid', async (req, res) => {
    const viewer = signedIn(res);
    const now = new Date();
    const merchant = isMid(req.params.mid)
      ? await findMerchantOverview(deps.db, req.params.mid, istDayStart(now))
      : null;
    if (!merchant) {
      merchantNotFound(res, viewer, req.params.mid);
      return;
    }
    const actions = await listOperatorActions(deps.db, { merchantId: merchant.id, limit: 50 });
    renderPage(res, 200, <MerchantPage viewer={viewer} merchant={merchant} actions={actions} today={now} />);
  });

  router.get('/console/merchants/:mid/payouts', async (req, res) => {
    const viewer = signedIn(res);
    const merchant = await merchantOr404(deps.db, req, res, viewer);
    if (!merchant) return;
    const range = dateRange(req);
    const status = payoutStatus(req.query.status);
    const rows = await listPayouts(deps.db, {
      merchantId: merchant.id,
      ...(status && { status }),
      ...(range && { from: range.from, to: range.to }),
      limit: 500,
    });
    const base = `/console/merchants/${encodeURIComponent(merchant.mid)}`;
    renderPage(
      res,
      range === null ? 400 : 200,
      <ListPage
        title={`Payouts of ${merchant.mid}`}
        viewer={viewer}
        intro={
          range === null ? (
            <p class="error" role="alert">
              The dates must be real days (YYYY-MM-DD), "to" not before "from", at most {MAX_STATEMENT_DAYS} days.
            </p>
          ) : (
            <p>
              <a href={base}>Back to {merchant.mid}</a> · at most 500 shown, newest first; the CSV statement has them
              all.
            </p>
          )
        }
        filters={<PayoutFilterForm base={base} status={status} from={str(req.query.from)} to={str(req.query.to)} />}
        columns={payoutColumns}
        rows={range === null ? [] : rows}
        empty="No payout matches."
      />,
    );
  });

  // The statement merchants ask for: every payout accepted in the date range (IST days, both included).
  router.get('/console/merchants/:mid/statement.csv', async (req, res) => {
    const viewer = signedIn(res);
    const merchant = await merchantOr404(deps.db, req, res, viewer);
    if (!merchant) return;
    const range = dateRange(req);
    if (range === null) {
      renderPage(
        res,
        400,
        <MessagePage title="Bad date range" viewer={viewer}>
          <p>The dates must be real days (YYYY-MM-DD), "to" not before "from", at most {MAX_STATEMENT_DAYS} days.</p>
        </MessagePage>,
      );
      return;
    }
    const today = istDate(new Date());
    const { from, to } = range ?? { from: istMidnight(today)!, to: new Date(istMidnight(today)!.getTime() + DAY_MS) };
    const name = `${merchant.mid}-payouts-${istDate(from)}-to-${istDate(new Date(to.getTime() - DAY_MS))}.csv`;
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="${name}"`)
      .setHeader('Cache-Control', 'no-store');
    res.write(
      csvLine([
        'Ack_no',
        'TransactionID',
        'Mode',
        'Amount',
        'Status',
        'Bankriff',
        'FailureReason',
        'BeneficiaryName',
        'Account',
        'Ifsc',
        'AcceptedAt',
        'SettledAt',
      ]),
    );
    const status = payoutStatus(req.query.status);
    for await (const p of payoutsForStatement(deps.db, merchant.id, from, to)) {
      if (status && p.status !== status) continue;
      res.write(
        csvLine([
          p.ackNo,
          p.transactionId,
          p.mode,
          formatRupees(p.amountPaise),
          p.status,
          p.bankReference ?? '',
          p.failureReason ?? '',
          p.beneficiaryName,
          p.beneficiaryAccount,
          p.beneficiaryIfsc ?? '',
          p.createdAt.toISOString(),
          p.settledAt?.toISOString() ?? '',
        ]),
      );
    }
    res.end();
  });

  return router;
}

/**
 * The `from` and `to` query dates as [midnight IST of from, midnight IST after to); undefined when neither
 * is given, null when they are not real days, reversed, or more than a year apart.
 */
function dateRange(req: Request): { from: Date; to: Date } | undefined | null {
  const fromText = str(req.query.from);
  const toText = str(req.query.to);
  if (!fromText && !toText) return undefined;
  const from = istMidnight(fromText || toText);
  const toDay = istMidnight(toText || fromText);
  if (!from || !toDay) return null;
  const to = new Date(toDay.getTime() + DAY_MS);
  if (to <= from || to.getTime() - from.getTime() > MAX_STATEMENT_DAYS * DAY_MS) return null;
  return { from, to };
}

function payoutStatus(value: unknown): PayoutStatus | undefined {
  return value === 'PENDING' || value === 'SUCCESS' || value === 'FAILED' ? value : undefined;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
