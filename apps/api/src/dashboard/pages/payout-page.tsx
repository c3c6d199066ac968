import { Router, type Request, type Response } from 'express';
import { payoutStatusBody, type PayoutStatusBody } from '@payout/contract';
import {
  findPayoutDescription,
  findPayoutStory,
  lookUpPayout,
  type LookupDatabases,
  type PayoutLookup,
} from '@payout/db';
import { merchantMay } from '@payout/domain';
import { cancelPayout } from '@payout/use-cases';
import type { ApiDependencies } from '../../app.js';
import { ist } from '../../admin/console/views/format.js';
import { requestLines } from '../../http/request-context.js';
import { noSuchDashboardPage, permit } from '../dashboard-gates.js';
import { DashboardCsrf, DashboardPage, renderDashboardPage } from '../dashboard-layout.js';
import type { DashboardViewer } from '../dashboard-session.js';
import { merchantTimeline, type MerchantTimelineEntry } from './merchant-timeline.js';

/** A TransactionID as the merchant API accepts it (docs/api.md, "Request members"): 1 to 30 digits. */
const TRANSACTION_ID = /^[0-9]{1,30}$/;

/** What a cancel did, as the page says it after the redirect (docs/api.md, "Cancelling a payout"). */
const CANCEL_NOTICES = {
  cancelled: 'Cancelled: the payout failed as cancelled by you, and its amount is back in the main wallet.',
  'already-cancelled': 'This payout was already cancelled. Nothing changed.',
  sent: 'Not cancelled: this payout was already sent to a bank, or has already settled, so it can no longer be cancelled. Nothing changed.',
} as const;

type CancelNotice = keyof typeof CANCEL_NOTICES;

/**
 * A payout's page, GET /dashboard/payouts/<TransactionID>: its status lookup's body as the merchant API
 * answers it (docs/api.md, "Lookups"), its Description, and its timeline as its merchant may see it
 * (merchant-timeline.ts). Another merchant's payout, or none, is the dashboard's 404. POST …/cancel cancels
 * it through the cancel endpoint's use case (docs/api.md, "Cancelling a payout"), for a role with `pay`.
 */
export function payoutPageRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  const dbs: LookupDatabases = { primary: deps.db, replica: deps.readDb };

  /** Shows the payout, or the 404 page when the merchant has none by this TransactionID. */
  async function showPayout(
    req: Request,
    res: Response,
    viewer: DashboardViewer,
    status: number,
    notice: CancelNotice | undefined,
  ): Promise<void> {
    const transactionId = req.params.transactionId as string;
    const lookup = TRANSACTION_ID.test(transactionId)
      ? await lookUpPayout(dbs, viewer.merchant.id, transactionId)
      : null;
    const story = lookup && (await findPayoutStory(deps.db, viewer.merchant.mid, transactionId));
    if (!lookup || !story) {
      noSuchDashboardPage(req, res, () => {});
      return;
    }
    const description = await findPayoutDescription(deps.db, viewer.merchant.id, transactionId);
    const timeline = merchantTimeline({
      events: story.events,
      webhooks: story.webhooks,
      payout: {
        scheduledAt: lookup.scheduledAt,
        failureReason: lookup.failureReason,
        bankReference: lookup.bankReference,
        bank: lookup.bank,
      },
    });
    renderDashboardPage(
      res,
      status,
      <PayoutPage
        viewer={viewer}
        payout={lookup}
        body={payoutStatusBody(lookup)}
        acceptedAt={story.payout.createdAt}
        description={description ?? null}
        timeline={timeline}
        notice={notice}
      />,
    );
  }

  router.get(
    '/dashboard/payouts/:transactionId',
    permit('read', async (req, res, viewer) => {
      const notice = req.query.cancel;
      await showPayout(
        req,
        res,
        viewer,
        200,
        typeof notice === 'string' && notice in CANCEL_NOTICES ? (notice as CancelNotice) : undefined,
      );
    }),
  );

  router.post(
    '/dashboard/payouts/:transactionId/cancel',
    permit('pay', async (req, res, viewer) => {
      const transactionId = req.params.transactionId as string;
      const result = TRANSACTION_ID.test(transactionId)
        ? await cancelPayout(deps, { merchantId: viewer.merchant.id, transactionId, log: requestLines(req) })
        : null;
      if (!result) {
        noSuchDashboardPage(req, res, () => {});
        return;
      }
      req.log.info({ merchantUser: viewer.user.id, outcome: result.outcome }, 'dashboard payout cancel');
      if (result.outcome === 'sent') {
        // Refused as the API refuses it (409; a payout that settled without a bank, such as one refused for
        // balance, is `sent` too): the page shows the payout as it stands, and why.
        await showPayout(req, res, viewer, 409, 'sent');
        return;
      }
      res.redirect(303, `/dashboard/payouts/${transactionId}?cancel=${result.outcome}`);
    }),
  );
  return router;
}

/** Payouts no bank has yet, which the cancel use case can still cancel (docs/api.md, "Cancelling a payout"). */
function cancellable(p: PayoutLookup): boolean {
  return p.state === 'QUEUED' || p.state === 'ACCEPTED';
}

function PayoutPage(props: {
  viewer: DashboardViewer;
  payout: PayoutLookup;
  body: PayoutStatusBody;
  acceptedAt: Date;
  description: string | null;
  timeline: readonly MerchantTimelineEntry[];
  notice: CancelNotice | undefined;
}) {
  const { body: b, payout: p } = props;
  return (
    <DashboardPage title={`Payout ${b.TransactionID}`} viewer={props.viewer}>
      {props.notice && (
        <p class={props.notice === 'sent' ? 'error' : 'message'} role="status">
          {CANCEL_NOTICES[props.notice]}
        </p>
      )}
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`badge badge-${b.status.toLowerCase()}`}>{b.status}</span> {b.message}
        </dd>
        <dt>Amount</dt>
        <dd>
          ₹ {b.Amount} by {b.mode}
        </dd>
        <dt>Beneficiary</dt>
        <dd>
          {p.name} · {b.account}
          {b.ifsc && ` · ${b.ifsc}`}
        </dd>
        <dt>Description</dt>
        <dd>{props.description ?? '—'}</dd>
        <dt>TransactionID</dt>
        <dd>{b.TransactionID}</dd>
        <dt>Ack_no</dt>
        <dd>{b.Ack_no}</dd>
        <dt>Bank</dt>
        <dd>{b.bank ?? (b.status === 'Pending' ? 'not sent yet' : '—')}</dd>
        <dt>Bank reference (Bankriff)</dt>
        <dd>{b.Bankriff || '—'}</dd>
        {b.reason_code && (
          <>
            <dt>Reason</dt>
            <dd>
              {b.reason_code} ·{' '}
              {b.retryable ? 'sending it again under a new TransactionID is safe' : 'sending it again would fail'}
            </dd>
          </>
        )}
        <dt>Accepted</dt>
        <dd>{ist(props.acceptedAt)}</dd>
        {p.scheduledAt && (
          <>
            <dt>Scheduled for</dt>
            <dd>{ist(p.scheduledAt)}</dd>
          </>
        )}
      </dl>
      {merchantMay(props.viewer.user.role, 'pay') && cancellable(p) && (
        <form method="post" action={`/dashboard/payouts/${b.TransactionID}/cancel`} class="actions">
          <DashboardCsrf viewer={props.viewer} />
          <button type="submit">Cancel this payout</button>
        </form>
      )}
      <h2>Timeline</h2>
      {props.timeline.length === 0 ? (
        <p class="empty">Nothing yet.</p>
      ) : (
        <ol class="timeline">
          {props.timeline.map((e) => (
            <li class={`t-${e.kind}`}>
              <p class="when">
                <time dateTime={e.at.toISOString()}>{ist(e.at)}</time>
              </p>
              <p class="what">{e.title}</p>
              {e.detail && <p class="detail">{e.detail}</p>}
            </li>
          ))}
        </ol>
      )}
      <p>
        <a href="/dashboard">All payouts</a>
      </p>
    </DashboardPage>
  );
}
