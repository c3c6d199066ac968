import { listOperatorActions } from '@payout/db';
import { findPayoutJobs, type PayoutJobView } from '@payout/queue';
import { exactRouter } from '../../console-authorization.js';
import type { ConsoleContext } from '../../console-dependencies.js';
import { payoutOr404 } from '../../console-guards.js';
import { payoutTimeline } from '../../payout-timeline.js';
import { renderPage } from '../../render.js';
import { PayoutPage } from './payout-page.js';

/** A payout's page, GET /console/payouts/<Ack_no>: its facts, its actions, and its whole story. */
export function payoutRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    '/console/payouts/:ackNo',
    allow('read', async (req, res, viewer) => {
      const story = await payoutOr404(deps.db, req, res, viewer);
      if (!story) return;
      let jobs: PayoutJobView[] = [];
      let jobsNote: string | undefined;
      try {
        jobs = await findPayoutJobs(deps.payoutQueue, story.payout.id, story.payout.inquiryAttempts);
      } catch (error) {
        // The story is PostgreSQL's; Redis being away costs the page its queue jobs, never the page.
        jobsNote = `Queue jobs are not shown: the queue did not answer (${(error as Error).message}).`;
      }
      const actions = await listOperatorActions(deps.db, { payoutId: story.payout.id, limit: 50 });
      const timeline = payoutTimeline(story, jobs, actions);
      renderPage(
        res,
        200,
        <PayoutPage viewer={viewer} story={story} timeline={timeline} actions={actions} jobsNote={jobsNote} />,
      );
    }),
  );
  return router;
}
