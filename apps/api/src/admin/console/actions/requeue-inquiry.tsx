import { requeueInquiry } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { confirmPayoutAction, payoutActionPost } from './action-helpers.js';

/**
 * Ask the rail about a payout now instead of at its next scheduled inquiry. It moves no money and is
 * harmless to repeat, so an operator does it alone (docs/operations.md, "Roles").
 */
export function requeueInquiryRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/payouts/:ackNo/requeue-inquiry')
    .get(
      allow(
        'act',
        confirmPayoutAction(context, 'requeue-inquiry', ({ payout }) => ({
          title: `Re-queue the inquiry of ${payout.ackNo}`,
          confirm: 'Ask the rail again now',
          explanation: <p>A worker asks the rail about this payout now instead of at its next scheduled inquiry.</p>,
        })),
      ),
    )
    .post(
      allow(
        'act',
        payoutActionPost((request) => requeueInquiry(deps, request), 'requeued', {
          'not-waiting': ({ state }) => [
            409,
            'Nothing to ask',
            `The payout is ${state}: it is not waiting on the rail.`,
          ],
          'queue-unavailable': () => [
            503,
            'Queue unavailable',
            'Redis did not answer; the sweeper re-queues overdue inquiries by itself.',
          ],
        }),
      ),
    );
  return router;
}
