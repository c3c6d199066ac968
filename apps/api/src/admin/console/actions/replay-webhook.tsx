import { replayWebhook } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { confirmPayoutAction, payoutActionPost } from './action-helpers.js';

/**
 * Send a settled payout's result to the merchant's webhook endpoint again, as a fresh delivery. It moves no
 * money and is harmless to repeat, so an operator does it alone (docs/operations.md, "Roles").
 */
export function replayWebhookRoutes(context: ConsoleContext) {
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
  return router;
}
