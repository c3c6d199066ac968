import type { Queue } from 'bullmq';
import { lastHours, readDayAtAGlance } from '@payout/db';
import type { consoleAuthorization } from './console-authorization.js';
import { exactRouter } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { renderPage } from './render.js';
import { MessagePage } from './views/layout.js';
import { TodayPage, type QueueDepth } from './views/today-page.js';

/** The day page looks back this many hours unless asked otherwise, and at most this far. */
export const DEFAULT_HOURS = 24;
export const MAX_HOURS = 72;
/** How long the page waits for Redis before it says the queues are unavailable. */
const QUEUE_ANSWER_MS = 1_500;

/** The operator's day at a glance (docs/operations.md, "The day at a glance"): anyone signed in may read it. */
export function todayRoutes(deps: ConsoleDependencies, allow: ReturnType<typeof consoleAuthorization>['allow']) {
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
      const [day, queues] = await Promise.all([
        readDayAtAGlance(deps.db, lastHours(hours, new Date())),
        queueDepths({ Payouts: deps.payoutQueue, Webhooks: deps.webhookQueue }),
      ]);
      renderPage(res, 200, <TodayPage viewer={viewer} hours={hours} day={day} queues={queues} />);
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

/**
 * The jobs in each queue, or why they are not known: the page is about PostgreSQL's numbers, so Redis
 * being away (or slow) costs it one section, never the page.
 */
export async function queueDepths(queues: Record<string, Queue>): Promise<QueueDepth> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${QUEUE_ANSWER_MS} ms`)), QUEUE_ANSWER_MS);
  });
  try {
    const counts = await Promise.race([
      Promise.all(
        Object.entries(queues).map(async ([name, queue]) => {
          const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
          return {
            name,
            waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
            active: c.active ?? 0,
            delayed: c.delayed ?? 0,
            failed: c.failed ?? 0,
          };
        }),
      ),
      late,
    ]);
    return { available: true, counts };
  } catch (error) {
    return { available: false, reason: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
