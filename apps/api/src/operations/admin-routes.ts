import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router } from 'express';
import helmet from 'helmet';
import { z } from 'zod';
import { AppError, formatRupees, isMid } from '@payout/domain';
import { findPayoutStory, type PrismaClient } from '@payout/db';
import { findPayoutJobs } from '@payout/queue';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';
import { transactionIdField } from '../validation/request-fields.js';
import { validate } from '../validation/validate.js';
import { requireAdmin } from './admin-auth.js';

const storyQuery = z.object({
  mid: z.string({ error: 'mid is required' }).refine(isMid, { error: 'mid must be a well-formed MID' }),
  TransactionID: transactionIdField,
});

/**
 * The support console, behind the admin token: GET /admin/payouts?mid=…&TransactionID=… answers "where is
 * my money?" with a payout's whole story (events with the rail's answers, ledger legs, webhook attempts,
 * queue jobs), and /admin/queues is the BullMQ dashboard of every queue. `queues[0]` is the payouts queue.
 */
export function adminRoutes(deps: { db: PrismaClient; queues: Queue[]; adminToken: string }): Router {
  const router = Router();
  const guard = requireAdmin(deps.adminToken);

  router
    .route('/admin/payouts')
    .get(guard, async (req, res) => {
      const { mid, TransactionID } = validate(storyQuery, req.query);
      const story = await findPayoutStory(deps.db, mid, TransactionID);
      if (!story) throw new AppError('NOT_FOUND', 'No such payout for this MID.', { details: { TransactionID } });
      let jobs: unknown;
      try {
        jobs = await findPayoutJobs(deps.queues[0]!, story.payout.id, story.payout.inquiryAttempts);
      } catch (error) {
        jobs = { unavailable: (error as Error).message };
      }
      sendJson(res, 200, {
        error: false,
        status_code: 200,
        status: 'OK',
        payout: { ...story.payout, amount: formatRupees(story.payout.amountPaise) },
        events: story.events,
        ledger: story.ledger.map((l) => ({ ...l, amount: formatRupees(l.amountPaise) })),
        webhooks: story.webhooks,
        jobs,
      });
    })
    .all(methodNotAllowed);

  const board = new ExpressAdapter();
  board.setBasePath('/admin/queues');
  createBullBoard({ queues: deps.queues.map((q) => new BullMQAdapter(q)), serverAdapter: board });
  // The dashboard is a browser application with inline bootstrapping; it gets its own, looser policy.
  router.use(
    '/admin/queues',
    guard,
    helmet({
      contentSecurityPolicy: {
        directives: { 'script-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:'] },
      },
    }),
    board.getRouter() as Router,
  );
  return router;
}
