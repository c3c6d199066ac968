import { findMerchantOverview, listMerchantTeam, listOperatorActions } from '@payout/db';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { merchantReadOr404 } from '../../console-guards.js';
import { renderPage } from '../../render.js';
import { istDayStart } from '../../views/format.js';
import { MerchantPage } from './merchant-page.js';

/** A merchant's page, GET /console/merchants/<MID>: balances, today's numbers, tokens, webhook, its dashboard team, audit. */
export function merchantRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/merchants/:mid',
    allow('read', async (req, res, viewer) => {
      const now = new Date();
      const merchant = await merchantReadOr404(req, res, viewer, (mid) =>
        findMerchantOverview(deps.db, mid, istDayStart(now)),
      );
      if (!merchant) return;
      const actions = await listOperatorActions(deps.db, { merchantId: merchant.id, limit: 50 });
      const team = await listMerchantTeam(deps.db, merchant.id);
      renderPage(
        res,
        200,
        <MerchantPage viewer={viewer} merchant={merchant} actions={actions} team={team} today={now} />,
      );
    }),
  );
  return router;
}
