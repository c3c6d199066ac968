import { Router, type Request, type Response } from 'express';
import { findWebhookEndpoint, type WebhookEndpointView } from '@payout/db';
import { merchantMay } from '@payout/domain';
import {
  findMerchantDeliveryPayout,
  listMerchantWebhookDeliveries,
  replayWebhook,
  setWebhookUrlByMerchantUser,
  type MerchantWebhookDelivery,
} from '@payout/use-cases';
import type { ApiDependencies } from '../../app.js';
import { ist } from '../../admin/console/views/format.js';
import { formField } from '../../http/cookies.js';
import { permit } from '../dashboard-gates.js';
import { DashboardCsrf, DashboardMessage, DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { RefusalAlert, RowActionForm } from './access-views.js';
import { changeOf } from './merchant-user-change.js';

/*
 * The merchant's webhook on its dashboard (docs/dashboard.md, "Webhook"; docs/webhooks.md): where it points,
 * whether it is sending, and the recent deliveries. Its admin moves the URL (judged by the rule every
 * registration is) and sends a payout's result again, as the console's replay does. The signing secret is
 * never on a page: the merchant fetches it through its API (docs/api.md, "Webhook signing secret").
 */

const DELIVERIES_PER_PAGE = 25;

export function webhookEndpointRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(
    '/dashboard/webhook',
    permit('read', async (req, res, viewer) => {
      await renderWebhookPage(deps, req, res, viewer, 200);
    }),
  );
  router.post(
    '/dashboard/webhook/url',
    permit('access', async (req, res, viewer) => {
      const url = (formField(req, 'url') ?? '').trim();
      if (url.length > 2048) {
        await renderWebhookPage(
          deps,
          req,
          res,
          viewer,
          422,
          'That URL was not saved: it is longer than 2,048 characters.',
        );
        return;
      }
      const set = await setWebhookUrlByMerchantUser(
        { db: deps.db, destinations: deps.webhookDestinations },
        { ...changeOf(viewer), url },
      );
      if (set.kind === 'refused-url') {
        await renderWebhookPage(deps, req, res, viewer, 422, `That URL was not saved: it ${set.why}.`);
        return;
      }
      res.redirect(303, '/dashboard/webhook');
    }),
  );
  router.post(
    '/dashboard/webhook/deliveries/send-again',
    permit('access', async (req, res, viewer, next) => {
      const field = formField(req, 'delivery') ?? '';
      const deliveryId = /^[1-9][0-9]{0,18}$/.test(field) ? BigInt(field) : undefined;
      // Only this merchant's deliveries are found: another's id is no page.
      const transactionId =
        deliveryId === undefined ? null : await findMerchantDeliveryPayout(deps.db, viewer.merchant.id, deliveryId);
      if (transactionId === null) {
        next();
        return;
      }
      const replay = await replayWebhook(deps, {
        payout: { mid: viewer.merchant.mid, transactionId },
        actor: `merchant-user:${viewer.user.id}`,
        reason: 'sent again from the merchant dashboard',
        requestedBy: `merchant-user:${viewer.user.id}`,
      });
      if (replay.kind === 'queued') {
        res.redirect(303, '/dashboard/webhook');
        return;
      }
      renderDashboardPage(
        res,
        409,
        <DashboardMessage title="Nothing sent" viewer={viewer}>
          <p>
            {replay.kind === 'not-settled'
              ? 'The payout is still pending: its result is sent when it settles.'
              : 'No webhook URL is set, so there is nowhere to send it.'}
          </p>
          <p>
            <a href="/dashboard/webhook">Back to the webhook</a>
          </p>
        </DashboardMessage>,
      );
    }),
  );
  return router;
}

async function renderWebhookPage(
  deps: ApiDependencies,
  req: Request,
  res: Response,
  viewer: DashboardViewer,
  status: number,
  error?: string,
): Promise<void> {
  const beforeText = typeof req.query.before === 'string' ? req.query.before : '';
  const before = /^[1-9][0-9]{0,18}$/.test(beforeText) ? BigInt(beforeText) : undefined;
  const [endpoint, deliveries] = await Promise.all([
    findWebhookEndpoint(deps.db, viewer.merchant.id),
    listMerchantWebhookDeliveries(deps.db, viewer.merchant.id, { limit: DELIVERIES_PER_PAGE + 1, before }),
  ]);
  renderDashboardPage(
    res,
    status,
    <WebhookPage
      viewer={viewer}
      endpoint={endpoint}
      deliveries={deliveries.slice(0, DELIVERIES_PER_PAGE)}
      olderFrom={deliveries.length > DELIVERIES_PER_PAGE ? deliveries[DELIVERIES_PER_PAGE - 1]!.id : undefined}
      error={error}
    />,
  );
}

function endpointState(endpoint: WebhookEndpointView): string {
  if (endpoint.secretPrefix === null) return 'Waiting for your signing secret: deliveries are held until you fetch it';
  if (endpoint.disabledAt) return `Disabled since ${ist(endpoint.disabledAt)}: ask your payout provider to enable it`;
  return 'Enabled';
}

function WebhookPage(props: {
  viewer: DashboardViewer;
  endpoint: WebhookEndpointView | null;
  deliveries: readonly MerchantWebhookDelivery[];
  olderFrom: bigint | undefined;
  error: string | undefined;
}) {
  const { viewer, endpoint, deliveries } = props;
  const mayChange = merchantMay(viewer.user.role, 'access');
  return (
    <DashboardPage title="Webhook" viewer={viewer}>
      {props.error && <RefusalAlert>{props.error}</RefusalAlert>}
      <dl class="facts">
        <dt>URL</dt>
        <dd>{endpoint ? <code>{endpoint.url}</code> : 'none set'}</dd>
        {endpoint && (
          <>
            <dt>State</dt>
            <dd>{endpointState(endpoint)}</dd>
            <dt>Signing secret</dt>
            <dd>{endpoint.secretPrefix ? <code>{endpoint.secretPrefix}…</code> : 'none yet'}</dd>
          </>
        )}
      </dl>
      <p>
        The signing secret is never shown here. Your servers fetch a new one with <code>POST /api/webhook/secret</code>{' '}
        and your MID and token (API documentation, "Webhook signing secret"); the one it replaces keeps signing for 24
        hours beside it.
      </p>
      {mayChange && (
        <form class="stack" method="post" action="/dashboard/webhook/url">
          <DashboardCsrf viewer={viewer} />
          <label for="url">Webhook URL (https, a public address)</label>
          <input id="url" name="url" type="url" required maxLength={2048} value={endpoint?.url ?? ''} />
          <button type="submit">Save the URL</button>
        </form>
      )}
      <h2>Recent deliveries</h2>
      {deliveries.length === 0 ? (
        <p class="empty">No deliveries yet.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption>Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">TransactionID</th>
                <th scope="col">State</th>
                <th scope="col" class="num">
                  Attempts
                </th>
                <th scope="col">Last answer</th>
                <th scope="col">Recorded</th>
                <th scope="col">Finished or next try</th>
                {mayChange && <th scope="col">Action</th>}
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr>
                  <td>{d.cause.toLowerCase().replaceAll('_', ' ')}</td>
                  <td>{d.transactionId ? <code>{d.transactionId}</code> : '—'}</td>
                  <td>{d.status.toLowerCase()}</td>
                  <td class="num">{d.attempts}</td>
                  <td>{d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—')}</td>
                  <td>{ist(d.createdAt)}</td>
                  <td>{d.finishedAt ? ist(d.finishedAt) : d.nextAttemptAt ? `next ${ist(d.nextAttemptAt)}` : '—'}</td>
                  {mayChange && (
                    <td>
                      {d.transactionId && (
                        <RowActionForm
                          viewer={viewer}
                          action="/dashboard/webhook/deliveries/send-again"
                          field="delivery"
                          value={String(d.id)}
                          label={`Send the result of ${d.transactionId} again`}
                        >
                          Send again
                        </RowActionForm>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {props.olderFrom !== undefined && (
        <p>
          <a href={`/dashboard/webhook?before=${String(props.olderFrom)}`}>Older deliveries</a>
        </p>
      )}
    </DashboardPage>
  );
}
