import { planTokenIssue } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { merchantNotFound, reasonOr422 } from '../console-guards.js';
import { confirmMerchantAction, merchantPath, requestAndShow } from './action-helpers.js';

/**
 * Issue a merchant another API token: whoever holds a token pays out the wallet, so it is a request for a
 * second person, and the token is shown once, to the approver (docs/operations.md, "Approvals").
 */
export function issueTokenRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
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
        const why = reasonOr422(req, res, viewer);
        if (!why) return;
        const mid = String(req.params.mid);
        const plan = await planTokenIssue(deps, { mid });
        if (plan.kind === 'no-merchant') {
          merchantNotFound(res, viewer, mid);
          return;
        }
        await requestAndShow(context, res, viewer, plan.planned, why);
      }),
    );
  return router;
}
