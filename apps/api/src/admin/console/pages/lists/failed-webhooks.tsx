import { listFailedWebhookDeliveries } from '@payout/db';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { ist } from '../../views/format.js';
import { LIST_LIMIT, renderListPage } from './list-page.js';

/** Webhook deliveries held for a disabled endpoint or given up (docs/webhooks.md). */
export function failedWebhooksRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/lists/failed-webhooks',
    allow('read', async (_req, res) => {
      renderListPage(res, {
        title: 'Failed webhook deliveries',
        intro: (
          <p>
            Deliveries held because their merchant's endpoint was disabled after failing a whole retry window (enable it
            with <code>pnpm cli webhook enable --mid …</code> to resume them), and deliveries given up because the
            merchant has no endpoint (replay one from its payout's page).
          </p>
        ),
        columns: [
          { header: 'Status', cell: (d) => (d.status === 'HELD' ? 'held: endpoint disabled' : 'given up') },
          {
            header: 'Payout',
            cell: (d) => (d.ackNo ? <a href={`/console/payouts/${d.ackNo}`}>{d.ackNo}</a> : (d.downtime ?? '')),
          },
          { header: 'MID', cell: (d) => <a href={`/console/merchants/${encodeURIComponent(d.mid)}`}>{d.mid}</a> },
          { header: 'TransactionID', cell: (d) => d.transactionId ?? '' },
          { header: 'Attempts', cell: (d) => d.attempts, numeric: true },
          {
            header: 'Last answer',
            cell: (d) => (d.lastStatusCode === null ? (d.lastError ?? '') : `HTTP ${d.lastStatusCode}`),
          },
          { header: 'Given up', cell: (d) => (d.finishedAt ? ist(d.finishedAt) : '') },
        ],
        rows: await listFailedWebhookDeliveries(deps.db, LIST_LIMIT),
        empty: 'No webhook delivery is held or has been given up.',
      });
    }),
  );
  return router;
}
