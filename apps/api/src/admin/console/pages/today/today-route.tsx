import { lastHours, readDayAtAGlance } from '@payout/db';
import { bankOverview } from '@payout/use-cases';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { renderPage } from '../../render.js';
import { MessagePage } from '../../views/layout.js';
import { queueDepths } from './queue-depths.js';
import { TodayPage } from './today-page.js';

/** The day page looks back this many hours unless asked otherwise, and at most this far. */
export const DEFAULT_HOURS = 24;
export const MAX_HOURS = 72;

/** The operator's day at a glance (docs/operations.md, "The day at a glance"): anyone signed in may read it. */
export function todayRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/today',
    allow('read', async (req, res, viewer) => {
      const hours = hoursOf(req.query.hours);
      if (hours === undefined) {
        renderPage(
          res,
          400,
          <MessagePage title="Not a number of hours" viewer={viewer}>
            <p>
              The day page looks back a whole number of hours from 1 to {MAX_HOURS}, like{' '}
              <a href="/console/today?hours=6">?hours=6</a>.
            </p>
          </MessagePage>,
        );
        return;
      }
      const [day, queues, banks] = await Promise.all([
        readDayAtAGlance(deps.db, lastHours(hours, new Date())),
        queueDepths({ Payouts: deps.payoutQueue, Webhooks: deps.webhookQueue }),
        bankOverview(deps),
      ]);
      renderPage(res, 200, <TodayPage viewer={viewer} hours={hours} day={day} queues={queues} banks={banks} />);
    }),
  );
  return router;
}

/** `?hours=N`: absent means the default; anything but a whole number from 1 to the maximum is refused. */
export function hoursOf(value: unknown): number | undefined {
  if (value === undefined) return DEFAULT_HOURS;
  if (typeof value !== 'string' || !/^[0-9]{1,2}$/.test(value)) return undefined;
  const hours = Number(value);
  return hours >= 1 && hours <= MAX_HOURS ? hours : undefined;
}
