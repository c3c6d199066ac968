import type { Response } from 'express';
import type { Merchant } from '@payout/db';
import { DOWNTIME_HOLD_SECONDS, updateRoutingSettingsAction } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { merchantNotFound, merchantOr404, reasonOf } from '../console-guards.js';
import { formField, type Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { actorOf, merchantPath } from './action-helpers.js';

/** The pin field's value for "no pin: route by health". */
const BY_HEALTH = '';

/**
 * Pin a merchant to one bank (or route it by health again) and set how long its payouts are held through a
 * downtime (docs/banks.md, "Routing" and "Holding"). No money moves: an operator does it alone, audited.
 */
export function routingSettingsRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/merchants/:mid/routing')
    .get(
      allow('act', async (req, res, viewer) => {
        const merchant = await merchantOr404(deps.db, req, res, viewer);
        if (merchant) routingPage(context, res, viewer, merchant);
      }),
    )
    .post(
      allow('act', async (req, res, viewer) => {
        const merchant = await merchantOr404(deps.db, req, res, viewer);
        if (!merchant) return;
        const pin = formField(req, 'pinnedBank') ?? BY_HEALTH;
        const holdText = formField(req, 'downtimeHoldSeconds')?.trim() ?? '';
        const hold = /^[0-9]{1,6}$/.test(holdText) ? Number(holdText) : NaN;
        const why = reasonOf(formField(req, 'why'));
        if (!(hold >= DOWNTIME_HOLD_SECONDS.min && hold <= DOWNTIME_HOLD_SECONDS.max) || !why) {
          routingPage(context, res, viewer, merchant, 422, 'Give a hold window of 1 to 86400 seconds and a reason.');
          return;
        }
        const changed = await updateRoutingSettingsAction(deps, {
          mid: merchant.mid,
          settings: { pinnedBank: pin === BY_HEALTH ? null : pin, downtimeHoldSeconds: hold },
          actor: actorOf(viewer),
          reason: why,
        });
        switch (changed.kind) {
          case 'no-merchant':
            merchantNotFound(res, viewer, merchant.mid);
            return;
          case 'unknown-bank':
            routingPage(context, res, viewer, merchant, 422, `No bank is configured as ${changed.bank}.`);
            return;
          case 'changed':
            res.redirect(303, `${merchantPath(merchant.mid)}#routing`);
        }
      }),
    );
  return router;
}

function routingPage(
  { deps }: ConsoleContext,
  res: Response,
  viewer: Viewer,
  merchant: Merchant,
  status = 200,
  error?: string,
): void {
  renderPage(
    res,
    status,
    <ActionPage
      viewer={viewer}
      title={`Routing of ${merchant.mid}`}
      action={merchantPath(merchant.mid, 'routing')}
      back={`${merchantPath(merchant.mid)}#routing`}
      error={error}
      confirm="Save the routing"
      explanation={
        <p>
          A pinned merchant's payouts go to its bank alone, whatever the other banks' health; unpinned, routing picks
          the healthiest bank for each payout. While no bank serves a payout's mode, the payout is held, then sent when
          one recovers or failed (retrying is safe) once the hold window has passed. Payouts already sent stay with
          their bank.
        </p>
      }
      fields={
        <>
          <label for="pinnedBank">Pinned to</label>
          <select id="pinnedBank" name="pinnedBank">
            <option value={BY_HEALTH} selected={merchant.pinnedBank === null}>
              No bank: route by health
            </option>
            {deps.banks.map((bank) => (
              <option value={bank.name} selected={merchant.pinnedBank === bank.name}>
                {bank.name} ({bank.modes.join(', ')}){bank.enabled ? '' : ' — disabled in BANKS'}
              </option>
            ))}
          </select>
          <label for="downtimeHoldSeconds">Hold window through a downtime (seconds)</label>
          <input
            id="downtimeHoldSeconds"
            name="downtimeHoldSeconds"
            type="number"
            min={String(DOWNTIME_HOLD_SECONDS.min)}
            max={String(DOWNTIME_HOLD_SECONDS.max)}
            required
            value={String(merchant.downtimeHoldSeconds)}
          />
        </>
      }
    />,
  );
}
