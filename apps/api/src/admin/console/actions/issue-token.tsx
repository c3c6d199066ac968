import type { Response } from 'express';
import { MERCHANT_TOKEN_DIGEST, MERCHANT_TOKEN_PREFIX, planTokenIssue } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { merchantNotFound, merchantOr404, reasonOf } from '../console-guards.js';
import { formField, type Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { merchantPath, requestAndShow } from './action-helpers.js';

/**
 * Register a token a merchant made itself, for a merchant that lost its own (docs/operations.md, "A
 * merchant's token and webhook secret"): the operator types the prefix and digest the merchant gave them;
 * another approver approves; the merchant's other tokens are then revoked. Nobody here sees a token.
 */
export function issueTokenRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/merchants/:mid/tokens/rotate')
    .get(
      allow('request', async (req, res, viewer) => {
        const merchant = await merchantOr404(deps.db, req, res, viewer);
        if (merchant) tokenPage(res, viewer, merchant.mid, { prefix: '', digest: '' });
      }),
    )
    .post(
      allow('request', async (req, res, viewer) => {
        const mid = String(req.params.mid);
        const typed = { prefix: formField(req, 'tokenPrefix') ?? '', digest: formField(req, 'tokenDigest') ?? '' };
        const why = reasonOf(formField(req, 'why'));
        if (!why) {
          tokenPage(res, viewer, mid, typed, 422, 'Give a reason: it goes to the audit log.');
          return;
        }
        const plan = await planTokenIssue(deps, { mid, token: typed });
        switch (plan.kind) {
          case 'planned':
            await requestAndShow(context, res, viewer, plan.planned, why);
            return;
          case 'invalid-token':
            tokenPage(res, viewer, mid, typed, 422, `Nothing was asked: ${plan.problems.join('; ')}.`);
            return;
          case 'token-taken':
            tokenPage(
              res,
              viewer,
              mid,
              typed,
              409,
              'That token is already registered; nothing was asked. The merchant makes a new one.',
            );
            return;
          case 'no-merchant':
            merchantNotFound(res, viewer, mid);
            return;
        }
      }),
    );
  return router;
}

function tokenPage(
  res: Response,
  viewer: Viewer,
  mid: string,
  typed: { prefix: string; digest: string },
  status = 200,
  error?: string,
): void {
  // Typed values are shown again only when well formed: pasted by mistake, one could be the token itself.
  const shown = {
    prefix: MERCHANT_TOKEN_PREFIX.test(typed.prefix.trim()) ? typed.prefix.trim() : '',
    digest: MERCHANT_TOKEN_DIGEST.test(typed.digest.trim()) ? typed.digest.trim() : '',
  };
  renderPage(
    res,
    status,
    <ActionPage
      viewer={viewer}
      title={`Register a new token for ${mid}`}
      action={merchantPath(mid, 'tokens/rotate')}
      back={merchantPath(mid)}
      error={error}
      confirm="Request the token"
      explanation={
        <p>
          For a merchant that lost its tokens. The merchant makes a new token itself (<code>payout-token</code> from its
          SDK) and gives you only its prefix and SHA-256 digest; it keeps the token. Another approver approves the
          request: the token then works, and every other token of the merchant is revoked, so a leaked one is shut out.
        </p>
      }
      fields={
        <>
          <label for="tokenPrefix">Token prefix (pgt_ and six characters)</label>
          <input id="tokenPrefix" name="tokenPrefix" maxLength={10} value={shown.prefix} />
          <label for="tokenDigest">Token SHA-256 digest (64 hex digits)</label>
          <input id="tokenDigest" name="tokenDigest" maxLength={64} value={shown.digest} />
        </>
      }
    />,
  );
}
