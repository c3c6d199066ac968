import { listPayouts } from '@payout/db';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { merchantOr404 } from '../../console-guards.js';
import { renderPage } from '../../render.js';
import { ListPage } from '../../views/layout.js';
import { payoutColumns } from '../../views/payout-columns.js';
import { PayoutFilterForm } from '../../views/payout-filter-form.js';
import { BAD_RANGE, dateRange, payoutStatus, queryText } from './statement-range.js';

/** The most of a merchant's payouts a page shows; the CSV statement has them all. */
const MERCHANT_PAYOUTS_SHOWN = 500;

/** A merchant's payouts by status and date, GET /console/merchants/<MID>/payouts. */
export function merchantPayoutsRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/merchants/:mid/payouts',
    allow('read', async (req, res, viewer) => {
      const merchant = await merchantOr404(deps.db, req, res, viewer);
      if (!merchant) return;
      const range = dateRange(req);
      const status = payoutStatus(req.query.status);
      const rows = await listPayouts(deps.db, {
        merchantId: merchant.id,
        ...(status && { status }),
        ...(range && { from: range.from, to: range.to }),
        limit: MERCHANT_PAYOUTS_SHOWN,
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
                {BAD_RANGE}
              </p>
            ) : (
              <p>
                <a href={base}>Back to {merchant.mid}</a> · at most {MERCHANT_PAYOUTS_SHOWN} shown, newest first; the
                CSV statement has them all.
              </p>
            )
          }
          filters={
            <PayoutFilterForm
              base={base}
              status={status}
              from={queryText(req.query.from)}
              to={queryText(req.query.to)}
            />
          }
          columns={payoutColumns}
          rows={range === null ? [] : rows}
          empty="No payout matches."
        />,
      );
    }),
  );
  return router;
}
