import { Router } from 'express';
import { downtimesBody, type DowntimeBody } from '@payout/contract';
import { listOpenBankDowntimes, listPastBankDowntimes, type PastBankDowntime } from '@payout/db';
import type { ApiDependencies } from '../../app.js';
import { ist } from '../../admin/console/views/format.js';
import { permit } from '../dashboard-gates.js';
import { DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { WideTable } from './page-parts.js';

/** How far back the page shows ended downtimes, and at most how many. */
const PAST_DAYS = 30;
const PAST_LIMIT = 100;

/**
 * The sponsor banks' downtimes, GET /dashboard/downtimes: those open now exactly as GET /api/downtimes gives
 * them (docs/api.md, "Downtimes"; read from the primary as the endpoint is, since a downtime opened a moment
 * ago is what a merchant asks about), then those that ended in the last {@link PAST_DAYS} days.
 */
export function downtimesPageRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(
    '/dashboard/downtimes',
    permit('read', async (_req, res, viewer) => {
      const open = downtimesBody(await listOpenBankDowntimes(deps.db)).downtimes;
      const since = new Date(Date.now() - PAST_DAYS * 24 * 60 * 60 * 1000);
      const past = await listPastBankDowntimes(deps.db, { since, limit: PAST_LIMIT });
      renderDashboardPage(res, 200, <DowntimesPage viewer={viewer} open={open} past={past} />);
    }),
  );
  return router;
}

function DowntimesPage(props: {
  viewer: DashboardViewer;
  open: readonly DowntimeBody[];
  past: readonly PastBankDowntime[];
}) {
  return (
    <DashboardPage title="Downtimes" viewer={props.viewer}>
      <p class="hint">
        While a bank is down for a mode, payouts of that mode go to another bank, or wait reserved until one serves it.
      </p>
      <h2>Now</h2>
      {props.open.length === 0 ? (
        <p class="empty">No bank is down or degraded now.</p>
      ) : (
        <WideTable caption="Open now, oldest first">
          <thead>
            <tr>
              <th scope="col">Bank</th>
              <th scope="col">Mode</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {props.open.map((d) => (
              <tr>
                <td>{d.bank}</td>
                <td>{d.mode}</td>
                <td>{d.status}</td>
                <td>{ist(new Date(d.since))}</td>
              </tr>
            ))}
          </tbody>
        </WideTable>
      )}
      <h2>Past {PAST_DAYS} days</h2>
      {props.past.length === 0 ? (
        <p class="empty">No downtime ended in the past {PAST_DAYS} days.</p>
      ) : (
        <WideTable caption="Ended, latest first">
          <thead>
            <tr>
              <th scope="col">Bank</th>
              <th scope="col">Mode</th>
              <th scope="col">Status</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {props.past.map((d) => (
              <tr>
                <td>{d.bank}</td>
                <td>{d.mode}</td>
                <td>{d.status}</td>
                <td>{ist(d.since)}</td>
                <td>{ist(d.resolvedAt)}</td>
              </tr>
            ))}
          </tbody>
        </WideTable>
      )}
    </DashboardPage>
  );
}
