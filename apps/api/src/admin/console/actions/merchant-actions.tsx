import { enableWebhookEndpointAction, planTokenIssue, revokeToken } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import { formField } from '../console-session.js';
import { merchantNotFound, merchantOr404, notFound } from '../find-routes.js';
import {
  confirmMerchantAction,
  done,
  reasonOf,
  requestAndShow,
  whyOr422,
  type ActionContext,
} from './action-helpers.js';

/**
 * A merchant's tokens and webhook endpoint. A new token is a request for a second person (whoever holds a
 * token pays out the wallet); revoking one and enabling a disabled endpoint move no money and are done alone.
 */
export function merchantActions(context: ActionContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  const merchantPath = (mid: string, rest: string) => `/console/merchants/${encodeURIComponent(mid)}/${rest}`;

  router
    .route('/console/merchants/:mid/tokens/rotate')
    .get(
      allow(
        'request',
        confirmMerchantAction((mid) => ({
          title: `Issue another token to ${mid}`,
          action: merchantPath(mid, 'tokens/rotate'),
          confirm: 'Request a token',
          explanation: (
            <p>
              Another approver approves the request; the new token is then shown once, to them. The merchant's other
              tokens keep working until revoked.
            </p>
          ),
        })),
      ),
    )
    .post(
      allow('request', async (req, res, viewer) => {
        const why = whyOr422(req, res, viewer);
        if (!why) return;
        const plan = await planTokenIssue(deps, { mid: String(req.params.mid) });
        if (plan.kind === 'no-merchant') {
          merchantNotFound(res, viewer, String(req.params.mid));
          return;
        }
        await requestAndShow(context, res, viewer, plan.planned, why);
      }),
    );

  router
    .route('/console/merchants/:mid/tokens/:id/revoke')
    .get(
      allow(
        'act',
        confirmMerchantAction((mid, req) => ({
          title: `Revoke token ${String(req.params.id)} of ${mid}`,
          action: merchantPath(mid, `tokens/${encodeURIComponent(String(req.params.id))}/revoke`),
          confirm: 'Revoke the token',
          explanation: <p>Requests with this token are refused within a few seconds on every API process.</p>,
        })),
      ),
    )
    .post(
      allow('act', async (req, res, viewer) => {
        const mid = String(req.params.mid);
        const why = reasonOf(formField(req, 'why'));
        const tokenId = /^[1-9][0-9]{0,8}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined;
        if (!why || tokenId === undefined) {
          done(res, viewer, 422, 'Say why', 'The reason is required: it goes to the audit log.');
          return;
        }
        const result = await revokeToken(deps, { mid, tokenId, actor: `console:${viewer.user.username}`, reason: why });
        if (result.kind === 'revoked') {
          res.redirect(303, `/console/merchants/${encodeURIComponent(mid)}`);
          return;
        }
        notFound(res, viewer, `MID ${mid} has no active token ${String(req.params.id)}.`);
      }),
    );

  // Enable a webhook endpoint disabled for failing a whole retry window; its held deliveries resume
  // (docs/webhooks.md, "An endpoint that keeps failing is disabled").
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
        const mid = String(req.params.mid);
        const why = whyOr422(req, res, viewer);
        if (!why) return;
        const merchant = await merchantOr404(deps.db, req, res, viewer);
        if (!merchant) return;
        const result = await enableWebhookEndpointAction(deps, {
          merchantId: merchant.id,
          actor: `console:${viewer.user.username}`,
          reason: why,
        });
        switch (result.kind) {
          case 'enabled':
            res.redirect(303, `/console/merchants/${encodeURIComponent(mid)}`);
            return;
          case 'not-disabled':
            done(res, viewer, 409, 'Not disabled', `The webhook endpoint of ${mid} is not disabled; nothing changed.`);
            return;
          case 'no-endpoint':
            done(res, viewer, 404, 'No endpoint', `${mid} has no webhook endpoint; nothing changed.`);
            return;
        }
      }),
    );
  return router;
}
