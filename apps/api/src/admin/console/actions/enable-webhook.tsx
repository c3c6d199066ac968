import { enableWebhookEndpointAction } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { merchantOr404, reasonOr422, showMessage } from '../console-guards.js';
import { actorOf, confirmMerchantAction, merchantPath } from './action-helpers.js';

/**
 * Enable a webhook endpoint disabled for failing a whole retry window; its held deliveries resume
 * (docs/webhooks.md, "An endpoint that keeps failing is disabled"). No money moves: an operator does it alone.
 */
export function enableWebhookRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/merchants/:mid/webhook/enable')
    .get(
      allow(
        'act',
        confirmMerchantAction((mid) => ({
          title: `Enable the webhook endpoint of ${mid}`,
          action: merchantPath(mid, 'webhook/enable'),
          confirm: 'Enable and resume deliveries',
          explanation: (
            <p>
              The endpoint was disabled after failing a delivery for its whole retry window. Enabling it sends the
              deliveries held meanwhile, each with a fresh retry window; if it still fails, it is disabled again.
            </p>
          ),
        })),
      ),
    )
    .post(
      allow('act', async (req, res, viewer) => {
        const why = reasonOr422(req, res, viewer);
        if (!why) return;
        const merchant = await merchantOr404(deps.db, req, res, viewer);
        if (!merchant) return;
        const { mid } = merchant;
        // Only the merchant's first signing secret releases an endpoint that has none (docs/webhooks.md).
        const result = await enableWebhookEndpointAction(deps, {
          merchantId: merchant.id,
          actor: actorOf(viewer),
          reason: why,
        });
        switch (result.kind) {
          case 'enabled':
            res.redirect(303, merchantPath(mid));
            return;
          case 'not-disabled':
            showMessage(
              res,
              viewer,
              409,
              'Not disabled',
              `The webhook endpoint of ${mid} is not disabled; nothing changed.`,
            );
            return;
          case 'no-endpoint':
            showMessage(res, viewer, 404, 'No endpoint', `${mid} has no webhook endpoint; nothing changed.`);
            return;
          case 'awaiting-secret':
            showMessage(
              res,
              viewer,
              409,
              'Waiting for the merchant',
              `The webhook endpoint of ${mid} waits for the merchant to fetch its signing secret (POST /api/webhook/secret); its deliveries resume then. Nothing changed.`,
            );
            return;
        }
      }),
    );
  return router;
}
