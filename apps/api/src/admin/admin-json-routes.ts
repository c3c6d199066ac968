import type { Queue } from 'bullmq';
import { Router } from 'express';
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
 * For scripts, behind the admin token: GET /admin/payouts?mid=…&TransactionID=… answers "where is my
 * money?" with a payout's whole story (events with the rail's answers, ledger legs, webhook attempts,
 * queue jobs) as JSON. People use the console's payout page, which shows the same story.
 */
export function adminJsonRoutes(deps: { db: PrismaClient; payoutQueue: Queue; adminToken: string }): Router {
  const router = Router();
  router
    .route('/admin/payouts')
    .get(requireAdmin(deps.adminToken), async (req, res) => {
      const { mid, TransactionID } = validate(storyQuery, req.query);
      const story = await findPayoutStory(deps.db, mid, TransactionID);
      if (!story) throw new AppError('NOT_FOUND', 'No such payout for this MID.', { details: { TransactionID } });
      let jobs: unknown;
      try {
        jobs = await findPayoutJobs(deps.payoutQueue, story.payout.id, story.payout.inquiryAttempts);
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
        discrepancies: story.discrepancies.map((d) => ({ ...d, amount: formatRupees(d.amountPaise) })),
        jobs,
      });
    })
    .all(methodNotAllowed);
  return router;
}
