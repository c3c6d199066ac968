import { Router, type Response } from 'express';
import { listTokens, type MerchantToken } from '@payout/db';
import { merchantMay } from '@payout/domain';
import { revokeTokenByMerchantUser, rotateTokenByMerchantUser } from '@payout/use-cases';
import type { ApiDependencies } from '../../app.js';
import { ist } from '../../admin/console/views/format.js';
import { formField } from '../../http/cookies.js';
import { permit } from '../dashboard-gates.js';
import { DashboardCsrf, DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { RefusalAlert, RowActionForm } from './access-views.js';
import { changeOf } from './merchant-user-change.js';

/*
 * The merchant's API tokens on its dashboard (docs/dashboard.md, "API tokens"; docs/api.md, "Token
 * rotation"): every token by its prefix, never more of it. A new token is shown once, in the answer to the
 * Rotate form, to the person who made it: only its digest is stored, only its prefix audited, and nothing of
 * it reaches a log. A change makes this process forget the merchant's cached credentials at once (as the
 * merchant API's own rotation and revocation do); the other API processes within AUTH_CACHE_TTL_MS.
 */

export function apiTokenRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(
    '/dashboard/tokens',
    permit('read', async (_req, res, viewer) => {
      await renderTokensPage(deps, res, viewer, 200);
    }),
  );
  router.post(
    '/dashboard/tokens/rotate',
    permit('access', async (_req, res, viewer) => {
      const rotated = await rotateTokenByMerchantUser(deps, changeOf(viewer));
      if (rotated.kind === 'at-limit') {
        await renderTokensPage(deps, res, viewer, 409, {
          error:
            `You hold ${rotated.activePrefixes.length} active tokens, the most at once: revoke one you no longer ` +
            `use (${rotated.activePrefixes.join(', ')}) first.`,
        });
        return;
      }
      deps.credentials.forget(viewer.merchant.mid);
      await renderTokensPage(deps, res, viewer, 200, { newToken: rotated });
    }),
  );
  router.post(
    '/dashboard/tokens/revoke',
    permit('access', async (req, res, viewer) => {
      const field = formField(req, 'token') ?? '';
      const tokenId = /^[1-9][0-9]{0,8}$/.test(field) ? Number(field) : undefined;
      const revoked =
        tokenId === undefined
          ? ({ kind: 'no-token' } as const)
          : await revokeTokenByMerchantUser(deps, { ...changeOf(viewer), tokenId });
      switch (revoked.kind) {
        case 'revoked':
          deps.credentials.forget(viewer.merchant.mid);
          res.redirect(303, '/dashboard/tokens');
          return;
        case 'no-token':
          await renderTokensPage(deps, res, viewer, 404, { error: 'You have no such active token: nothing changed.' });
          return;
        case 'last-token':
          await renderTokensPage(deps, res, viewer, 409, {
            error: 'That is your only active token: rotate first, move your servers to the new one, then revoke it.',
          });
          return;
      }
    }),
  );
  return router;
}

async function renderTokensPage(
  deps: ApiDependencies,
  res: Response,
  viewer: DashboardViewer,
  status: number,
  shown: { newToken?: { token: string; prefix: string }; error?: string } = {},
): Promise<void> {
  const tokens = await listTokens(deps.db, viewer.merchant.id);
  renderDashboardPage(
    res,
    status,
    <TokensPage viewer={viewer} tokens={tokens} newToken={shown.newToken} error={shown.error} />,
  );
}

function TokensPage(props: {
  viewer: DashboardViewer;
  tokens: readonly MerchantToken[];
  newToken: { token: string; prefix: string } | undefined;
  error: string | undefined;
}) {
  const { viewer, tokens, newToken } = props;
  const mayChange = merchantMay(viewer.user.role, 'access');
  const active = tokens.filter((t) => t.revokedAt === null);
  return (
    <DashboardPage title="API tokens" viewer={viewer}>
      {props.error && <RefusalAlert>{props.error}</RefusalAlert>}
      {newToken && (
        <div class="secret" role="status">
          <p>
            Your new token, shown this once: copy it now into your servers' configuration. It is not stored in clear
            anywhere and cannot be shown again. Your other tokens keep working until you revoke them.
          </p>
          <p>
            <code>{newToken.token}</code>
          </p>
          <p>
            Reloading this page would make yet another token. <a href="/dashboard/tokens">Done: back to your tokens</a>
          </p>
        </div>
      )}
      <p>
        Your servers send your MID and one of these tokens with every request (API documentation, "Your token"). Only
        each token's first characters are shown. Revoked tokens are refused within seconds.
      </p>
      <div class="table-wrap">
        <table>
          <caption>Tokens</caption>
          <thead>
            <tr>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Revoked</th>
              {mayChange && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr>
                <td>
                  <code>{t.tokenPrefix}</code>…
                </td>
                <td>{ist(t.createdAt)}</td>
                <td>{t.lastUsedAt ? ist(t.lastUsedAt) : 'never'}</td>
                <td>{t.revokedAt ? ist(t.revokedAt) : 'active'}</td>
                {mayChange && (
                  <td>
                    {t.revokedAt === null && active.length > 1 && (
                      <RowActionForm
                        viewer={viewer}
                        action="/dashboard/tokens/revoke"
                        field="token"
                        value={String(t.id)}
                        label={`Revoke token ${t.tokenPrefix}`}
                      >
                        Revoke
                      </RowActionForm>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {mayChange && (
        <form method="post" action="/dashboard/tokens/rotate">
          <DashboardCsrf viewer={viewer} />
          <button type="submit">Rotate: make a new token</button>
        </form>
      )}
    </DashboardPage>
  );
}
