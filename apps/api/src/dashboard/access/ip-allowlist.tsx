import { Router, type Response } from 'express';
import { findMerchantByMid } from '@payout/db';
import { MAX_ALLOWLIST_ENTRIES, merchantMay } from '@payout/domain';
import { setAllowlistByMerchantUser } from '@payout/use-cases';
import type { ApiDependencies } from '../../app.js';
import { formField } from '../../http/cookies.js';
import { permit } from '../dashboard-gates.js';
import { DashboardCsrf, DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { changeOf } from './merchant-user-change.js';

/*
 * The merchant's IP allow-list on its dashboard (docs/dashboard.md, "IP allow-list"; docs/api.md, "IP
 * allow-list"): the networks its API tokens work from. Staff's change of it is a money action with a second
 * person, since staff do not own it; the merchant does, so its admin changes it directly, audited.
 *
 * A list that leaves out the address this request came from is NOT refused. The list says where the
 * merchant's tokens work — its servers — while this request comes from a person's browser, which is
 * rarely on the servers' network (an office, a phone). Refusing on the browser's address would block the
 * ordinary change and protect nothing, and the dashboard itself does not go by the list, so a list that
 * locks the servers out is mended from this same page.
 */

export function ipAllowlistRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(
    '/dashboard/allowlist',
    permit('read', async (_req, res, viewer) => {
      await renderAllowlistPage(deps, res, viewer, 200);
    }),
  );
  router.post(
    '/dashboard/allowlist',
    permit('access', async (req, res, viewer) => {
      const text = formField(req, 'cidrs') ?? '';
      const cidrs = text
        .split(/[\s,]+/)
        .map((c) => c.trim())
        .filter(Boolean);
      const set = await setAllowlistByMerchantUser(deps, { ...changeOf(viewer), cidrs });
      if (set.kind === 'invalid') {
        await renderAllowlistPage(deps, res, viewer, 422, { problems: set.problems, typed: text });
        return;
      }
      if (set.kind === 'set') deps.credentials.forget(viewer.merchant.mid);
      res.redirect(303, '/dashboard/allowlist');
    }),
  );
  return router;
}

async function renderAllowlistPage(
  deps: ApiDependencies,
  res: Response,
  viewer: DashboardViewer,
  status: number,
  refused?: { problems: string[]; typed: string },
): Promise<void> {
  const cidrs = (await findMerchantByMid(deps.db, viewer.merchant.mid))?.ipAllowlist ?? [];
  const mayChange = merchantMay(viewer.user.role, 'access');
  renderDashboardPage(
    res,
    status,
    <DashboardPage title="IP allow-list" viewer={viewer}>
      {refused && (
        <div class="error" role="alert">
          <p>Nothing changed:</p>
          <ul>
            {refused.problems.map((p) => (
              <li>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <p>
        Your API tokens work only from these networks; a request from any other address is refused as a wrong token
        would be. With no entries, they work from any address. This list does not apply to the dashboard.
      </p>
      {cidrs.length === 0 ? (
        <p class="empty">No entries: your tokens work from any address.</p>
      ) : (
        <ul>
          {cidrs.map((c) => (
            <li>
              <code>{c}</code>
            </li>
          ))}
        </ul>
      )}
      {mayChange && (
        <form class="stack" method="post" action="/dashboard/allowlist">
          <DashboardCsrf viewer={viewer} />
          <label for="cidrs">
            Networks, one per line (IPv4 or IPv6 CIDR, or a single address), at most {MAX_ALLOWLIST_ENTRIES}
          </label>
          <textarea id="cidrs" name="cidrs" rows={8} spellcheck={false}>
            {refused ? refused.typed : cidrs.join('\n')}
          </textarea>
          <p class="hint">
            The new list applies to your tokens within seconds. Leave out your servers' addresses and their requests are
            refused until you add them back here.
          </p>
          <button type="submit">Save the list</button>
        </form>
      )}
    </DashboardPage>,
  );
}
