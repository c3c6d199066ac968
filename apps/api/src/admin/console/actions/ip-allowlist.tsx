import type { Response } from 'express';
import { planIpAllowlist } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { merchantNotFound, merchantOr404, reasonOf } from '../console-guards.js';
import { formField, type Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { merchantPath, requestAndShow } from './action-helpers.js';

/**
 * Ask for a new IP allow-list for a merchant (docs/api.md, "IP allow-list"): where its tokens work decides
 * who can pay out its wallet, so it is a request another approver approves, who sees the list before and
 * after (docs/operations.md, "Approvals").
 */
export function ipAllowlistRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/merchants/:mid/ip-allowlist')
    .get(
      allow('request', async (req, res, viewer) => {
        const merchant = await merchantOr404(deps.db, req, res, viewer);
        if (merchant) allowlistPage(res, viewer, merchant.mid, merchant.ipAllowlist.join('\n'));
      }),
    )
    .post(
      allow('request', async (req, res, viewer) => {
        const mid = String(req.params.mid);
        const typed = formField(req, 'cidrs') ?? '';
        const why = reasonOf(formField(req, 'why'));
        if (!why) {
          allowlistPage(res, viewer, mid, typed, 422, 'Give a reason: it goes to the audit log.');
          return;
        }
        const cidrs = typed.split(/[\s,]+/).filter((c) => c !== '');
        const plan = await planIpAllowlist(deps, { mid, cidrs });
        switch (plan.kind) {
          case 'planned':
            await requestAndShow(context, res, viewer, plan.planned, why);
            return;
          case 'invalid':
            allowlistPage(res, viewer, mid, typed, 422, `Nothing was asked: ${plan.problems.join('; ')}.`);
            return;
          case 'unchanged':
            allowlistPage(
              res,
              viewer,
              mid,
              typed,
              409,
              'That is the list the merchant already has; nothing was asked.',
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

function allowlistPage(res: Response, viewer: Viewer, mid: string, cidrs: string, status = 200, error?: string): void {
  renderPage(
    res,
    status,
    <ActionPage
      viewer={viewer}
      title={`IP allow-list of ${mid}`}
      action={merchantPath(mid, 'ip-allowlist')}
      back={merchantPath(mid)}
      error={error}
      confirm="Request the new list"
      explanation={
        <p>
          The merchant's tokens will work only from these addresses; any other gets the answer of a wrong token. Leave
          the list empty to allow every address. Another approver approves the request, seeing the list before and
          after.
        </p>
      }
      fields={
        <>
          <label for="cidrs">CIDRs, one a line (IPv4 or IPv6, e.g. 203.0.113.0/24)</label>
          <textarea id="cidrs" name="cidrs" rows={6} maxLength={4000}>
            {cidrs}
          </textarea>
        </>
      }
    />,
  );
}
