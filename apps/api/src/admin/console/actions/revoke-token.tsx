import { revokeToken } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { notFound, reasonMissing, reasonOr422 } from '../console-guards.js';
import { actorOf, confirmMerchantAction, merchantPath } from './action-helpers.js';

/**
 * Revoke one of a merchant's API tokens: it moves no money, so an operator does it alone; requests with
 * the token are refused within seconds on every API process.
 */
export function revokeTokenRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
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
        const tokenId = /^[1-9][0-9]{0,8}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined;
        // A path whose token id is no number is a malformed form: refused like one without its reason.
        if (tokenId === undefined) {
          reasonMissing(res, viewer);
          return;
        }
        const why = reasonOr422(req, res, viewer);
        if (!why) return;
        const result = await revokeToken(deps, { mid, tokenId, actor: actorOf(viewer), reason: why });
        if (result.kind === 'revoked') {
          res.redirect(303, merchantPath(mid));
          return;
        }
        notFound(res, viewer, `MID ${mid} has no active token ${String(req.params.id)}.`);
      }),
    );
  return router;
}
