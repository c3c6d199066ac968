import type { ComponentChildren } from 'preact';
import { listPayouts } from '@payout/db';
import type { PayoutState } from '@payout/domain';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { payoutColumns } from '../../views/payout-columns.js';
import { LIST_LIMIT, renderListPage, wholeNumber } from './list-page.js';

/** The payouts that wait in one state for someone: each list shows them with what support does about them. */
const PAYOUTS_WAITING_IN_A_STATE: {
  path: string;
  state: PayoutState;
  title: string;
  intro: ComponentChildren;
  empty: string;
}[] = [
  {
    path: '/console/lists/manual-review',
    state: 'MANUAL_REVIEW',
    title: 'Manual review',
    intro: <p>Payouts the worker stopped asking the rail about. Open one, check with the bank, then resolve it.</p>,
    empty: 'No payout is waiting for manual review.',
  },
  {
    path: '/console/lists/queued',
    state: 'QUEUED',
    title: 'Queued for balance',
    intro: (
      <p>
        Payouts of merchants who queue when their balance is low, waiting for a credit in arrival order. Each credit
        releases what fits; one that waits past its merchant's queue window fails (docs/api.md, "Queue if low balance").
      </p>
    ),
    empty: 'No payout is waiting for balance.',
  },
];

/** The payouts still waiting: pending longer than N minutes, under manual review, queued for balance. */
export function waitingPayoutsRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/lists/pending',
    allow('read', async (req, res) => {
      const minutes = wholeNumber(req.query.minutes, 30);
      renderListPage(res, {
        title: `Pending longer than ${minutes} min`,
        filters: <PendingForm minutes={minutes} />,
        columns: payoutColumns,
        rows: await listPayouts(deps.db, { pendingForMinutes: minutes, limit: LIST_LIMIT }),
        empty: 'No payout has been pending that long.',
      });
    }),
  );
  for (const list of PAYOUTS_WAITING_IN_A_STATE) {
    router.get(
      list.path,
      allow('read', async (_req, res) => {
        renderListPage(res, {
          title: list.title,
          intro: list.intro,
          columns: payoutColumns,
          rows: await listPayouts(deps.db, { state: list.state, limit: LIST_LIMIT }),
          empty: list.empty,
        });
      }),
    );
  }
  return router;
}

function PendingForm(props: { minutes: number }) {
  return (
    <form method="get" class="filters">
      <label>
        Pending longer than <input type="number" name="minutes" min="0" max="100000" value={String(props.minutes)} />{' '}
        min
      </label>
      <button type="submit">List</button>
    </form>
  );
}
