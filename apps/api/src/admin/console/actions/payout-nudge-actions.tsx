import { replayWebhook, requeueInquiry } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import { confirmPayoutAction, payoutActionPost, type ActionContext } from './action-helpers.js';

/**
 * The single-person payout actions: they move no money and are harmless to repeat, so an operator does
 * them alone (docs/operations.md, "Roles"): send a settled payout's webhook again, and ask the rail now.
 */
export function payoutNudgeActions(context: ActionContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/payouts/:ackNo/replay-webhook')
    .get(
      allow(
        'act',
        confirmPayoutAction(context, 'replay-webhook', ({ payout }) => ({
          title: `Replay the webhook of ${payout.ackNo}`,
          confirm: 'Replay webhook',
          explanation: (
            <p>
              The payout's result ({payout.status}) is sent to {payout.mid}'s webhook endpoint again, as a fresh
              delivery with its own retries.
            </p>
          ),
        })),
      ),
    )
    .post(
      allow(
        'act',
        payoutActionPost((request) => replayWebhook(deps, request), 'queued', {
          'not-settled': () => [
            409,
            'Nothing to replay',
            'The payout is still pending: its webhook is sent when it settles.',
          ],
          'no-endpoint': () => [409, 'Nothing to replay', 'The merchant has no webhook endpoint.'],
        }),
      ),
    );

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
