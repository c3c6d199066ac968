import { Router, type Request, type Response } from 'express';
import { findPayoutStoryByAckNo, type PayoutStory } from '@payout/db';
import { FAILURE_REASON_TEXT, formatRupees, parseRupees, type FailureReason } from '@payout/domain';
import {
  creditWallet,
  enableWebhookEndpointAction,
  replayWebhook,
  requeueInquiry,
  resolveManualReview,
  revokeToken,
  rotateToken,
} from '@payout/operator-actions';
import type { ConsoleDependencies } from './console-dependencies.js';
import { formField, type Viewer } from './console-session.js';
import { merchantNotFound, merchantOr404, notFound, signedIn } from './find-routes.js';
import { renderPage } from './render.js';
import { ActionPage, type ActionPageProps } from './views/action-page.js';
import { rupees } from './views/format.js';
import { MessagePage } from './views/layout.js';

/** Why an operator action did nothing: the page's status, title and message. */
type Refusal = [status: number, title: string, message: string];

type SettleableReason = Exclude<FailureReason, 'INSUFFICIENT_BALANCE'>;
const RESOLVABLE_REASONS = Object.keys(FAILURE_REASON_TEXT).filter(
  (r): r is SettleableReason => r !== 'INSUFFICIENT_BALANCE',
);

/**
 * The operator actions (console-routes.ts lets only operators, with a valid CSRF token, reach them). Each
 * GET is the confirmation page; the POST calls the use case shared with the CLI (@payout/operator-actions),
 * which writes the audit log.
 */
export function actionRoutes(deps: ConsoleDependencies): Router {
  const router = Router();
  const actor = (viewer: Viewer) => `console:${viewer.user.username}`;

  /** The payout the path names, or a 404 page and undefined. */
  const payoutOr404 = async (req: Request, res: Response, viewer: Viewer): Promise<PayoutStory | undefined> => {
    const story = await findPayoutStoryByAckNo(deps.db, String(req.params.ackNo));
    if (!story) payoutNotFound(req, res, viewer);
    return story ?? undefined;
  };

  /** A payout action's confirmation page (GET): what will happen to the payout the path names. */
  const confirmPayoutAction =
    (path: string, page: (story: PayoutStory) => Pick<ActionPageProps, 'title' | 'confirm' | 'explanation'>) =>
    async (req: Request, res: Response) => {
      const viewer = signedIn(res);
      const story = await payoutOr404(req, res, viewer);
      if (!story) return;
      const { ackNo } = story.payout;
      renderPage(
        res,
        200,
        <ActionPage
          viewer={viewer}
          action={`/console/payouts/${ackNo}/${path}`}
          back={`/console/payouts/${ackNo}`}
          {...page(story)}
        />,
      );
    };

  /** A merchant action's confirmation page (GET) for the merchant the path names. */
  const confirmMerchantAction =
    (page: (mid: string, req: Request) => Pick<ActionPageProps, 'title' | 'confirm' | 'explanation' | 'action'>) =>
    (req: Request, res: Response) => {
      const mid = String(req.params.mid);
      renderPage(
        res,
        200,
        <ActionPage
          viewer={signedIn(res)}
          back={`/console/merchants/${encodeURIComponent(mid)}`}
          {...page(mid, req)}
        />,
      );
    };

  /**
   * A payout action's POST: the use case runs on the payout the path names, with the operator's reason.
   * Once it is done the operator is back on the payout's page; every other outcome is a refusal page.
   */
  const payoutActionPost =
    <Outcome extends { kind: string }, Succeeded extends Outcome['kind']>(
      act: (request: { payout: { ackNo: string }; actor: string; reason: string }) => Promise<Outcome>,
      succeeded: Succeeded,
      refusals: {
        [Kind in Exclude<Outcome['kind'], Succeeded | 'no-payout'>]: (
          outcome: Extract<Outcome, { kind: Kind }>,
        ) => Refusal;
      },
    ) =>
    async (req: Request, res: Response) => {
      const viewer = signedIn(res);
      const why = whyOr422(req, res, viewer);
      if (!why) return;
      const ackNo = String(req.params.ackNo);
      const outcome = await act({ payout: { ackNo }, actor: actor(viewer), reason: why });
      if (outcome.kind === succeeded) res.redirect(303, `/console/payouts/${ackNo}`);
      else if (outcome.kind === 'no-payout') payoutNotFound(req, res, viewer);
      else {
        const refusal = refusals[outcome.kind as keyof typeof refusals] as (outcome: Outcome) => Refusal;
        done(res, viewer, ...refusal(outcome));
      }
    };

  // Resolve a payout under manual review: the rail is asked first (docs/operations.md).
  const resolvePage = (res: Response, viewer: Viewer, story: PayoutStory, status = 200, error?: string) => {
    const p = story.payout;
    renderPage(
      res,
      status,
      <ActionPage
        viewer={viewer}
        title={`Resolve payout ${p.ackNo}`}
        action={`/console/payouts/${p.ackNo}/resolve`}
        back={`/console/payouts/${p.ackNo}`}
        error={error}
        confirm="Ask the rail, then resolve"
        explanation={
          <p>
            {rupees(p.amountPaise)} to {p.beneficiaryName} for {p.mid}, under manual review. The rail is asked for its
            answer first: a resolution that disagrees with it is refused unless you override it, and the override and
            its reason go to the audit log.
          </p>
        }
        fields={
          <>
            <fieldset>
              <legend>Resolve as</legend>
              <label>
                <input type="radio" name="outcome" value="success" required /> Success (paid)
              </label>
              <label>
                <input type="radio" name="outcome" value="failed" /> Failed (the money returns to the wallet)
              </label>
            </fieldset>
            <label for="utr">UTR, for a success (the rail's, if left empty)</label>
            <input id="utr" name="utr" maxLength={64} />
            <label for="reason">Failure reason, for a failure</label>
            <select id="reason" name="reason">
              {RESOLVABLE_REASONS.map((r) => (
                <option value={r}>{FAILURE_REASON_TEXT[r]}</option>
              ))}
            </select>
            <label>
              <input type="checkbox" name="override" value="yes" /> Override: resolve even if the rail disagrees or
              cannot be asked
            </label>
          </>
        }
      />,
    );
  };

  router
    .route('/console/payouts/:ackNo/resolve')
    .get(async (req, res) => {
      const viewer = signedIn(res);
      const story = await payoutOr404(req, res, viewer);
      if (story) resolvePage(res, viewer, story);
    })
    .post(async (req, res) => {
      const viewer = signedIn(res);
      const story = await payoutOr404(req, res, viewer);
      if (!story) return;
      const outcome = formField(req, 'outcome');
      const utr = formField(req, 'utr')?.trim() ?? '';
      const reason = formField(req, 'reason') as SettleableReason | undefined;
      const why = reasonOf(formField(req, 'why'));
      if ((outcome !== 'success' && outcome !== 'failed') || !why || utr.length > 64 || !/^[A-Za-z0-9]*$/.test(utr)) {
        resolvePage(
          res,
          viewer,
          story,
          422,
          'Choose success or failed, say why, and give a UTR of letters and digits.',
        );
        return;
      }
      if (outcome === 'failed' && !RESOLVABLE_REASONS.includes(reason!)) {
        resolvePage(res, viewer, story, 422, 'Choose a failure reason.');
        return;
      }
      const result = await resolveManualReview(deps, {
        payout: { ackNo: story.payout.ackNo },
        request:
          outcome === 'success'
            ? { outcome: 'SUCCESS', ...(utr && { bankReference: utr }) }
            : { outcome: 'FAILED', reason: reason! },
        actor: actor(viewer),
        reason: why,
        override: formField(req, 'override') === 'yes',
      });
      switch (result.kind) {
        case 'resolved': {
          res.redirect(303, `/console/payouts/${result.ackNo}`);
          return;
        }
        case 'refused': {
          resolvePage(res, viewer, story, 409, `Refused, nothing changed: ${result.why}.`);
          return;
        }
        case 'no-payout': {
          payoutNotFound(req, res, viewer);
          return;
        }
        case 'not-in-review':
        case 'moved': {
          resolvePage(
            res,
            viewer,
            story,
            409,
            `The payout is ${result.state ?? 'elsewhere'} now, not under manual review; nothing changed.`,
          );
          return;
        }
      }
    });

  router
    .route('/console/payouts/:ackNo/replay-webhook')
    .get(
      confirmPayoutAction('replay-webhook', ({ payout }) => ({
        title: `Replay the webhook of ${payout.ackNo}`,
        confirm: 'Replay webhook',
        explanation: (
          <p>
            The payout's result ({payout.status}) is sent to {payout.mid}'s webhook endpoint again, as a fresh delivery
            with its own retries.
          </p>
        ),
      })),
    )
    .post(
      payoutActionPost((request) => replayWebhook(deps, request), 'queued', {
        'not-settled': () => [
          409,
          'Nothing to replay',
          'The payout is still pending: its webhook is sent when it settles.',
        ],
        'no-endpoint': () => [409, 'Nothing to replay', 'The merchant has no webhook endpoint.'],
      }),
    );

  router
    .route('/console/payouts/:ackNo/requeue-inquiry')
    .get(
      confirmPayoutAction('requeue-inquiry', ({ payout }) => ({
        title: `Re-queue the inquiry of ${payout.ackNo}`,
        confirm: 'Ask the rail again now',
        explanation: <p>A worker asks the rail about this payout now instead of at its next scheduled inquiry.</p>,
      })),
    )
    .post(
      payoutActionPost((request) => requeueInquiry(deps, request), 'requeued', {
        'not-waiting': ({ state }) => [409, 'Nothing to ask', `The payout is ${state}: it is not waiting on the rail.`],
        'queue-unavailable': () => [
          503,
          'Queue unavailable',
          'Redis did not answer; the sweeper re-queues overdue inquiries by itself.',
        ],
      }),
    );

  router
    .route('/console/merchants/:mid/credit')
    .get(async (req, res) => {
      const viewer = signedIn(res);
      const merchant = await merchantOr404(deps.db, req, res, viewer);
      if (merchant) creditPage(res, viewer, merchant.mid);
    })
    .post(async (req, res) => {
      const viewer = signedIn(res);
      const mid = req.params.mid;
      const amount = parseRupees(formField(req, 'amount')?.trim() ?? '');
      const reference = formField(req, 'reference')?.trim() ?? '';
      const why = reasonOf(formField(req, 'why'));
      if (amount === undefined || amount <= 0n || !reference || reference.length > 100 || !why) {
        creditPage(res, viewer, mid, 422, 'Give a positive amount (at most two decimals), a reference and a reason.');
        return;
      }
      const result = await creditWallet(deps, {
        mid,
        amountPaise: amount,
        reference,
        actor: actor(viewer),
        reason: why,
      });
      switch (result.kind) {
        case 'credited': {
          res.redirect(303, `/console/merchants/${encodeURIComponent(mid)}`);
          return;
        }
        case 'already-credited': {
          done(res, viewer, 200, 'Already credited', `Reference ${reference} was credited before; nothing changed.`);
          return;
        }
        case 'reference-conflict': {
          creditPage(
            res,
            viewer,
            mid,
            409,
            `Reference ${reference} was already used for ${formatRupees(result.creditedPaise)}; nothing changed.`,
          );
          return;
        }
        case 'no-merchant': {
          merchantNotFound(res, viewer, mid);
          return;
        }
      }
    });

  const creditPage = (res: Response, viewer: Viewer, mid: string, status = 200, error?: string) =>
    renderPage(
      res,
      status,
      <ActionPage
        viewer={viewer}
        title={`Credit the wallet of ${mid}`}
        action={`/console/merchants/${encodeURIComponent(mid)}/credit`}
        back={`/console/merchants/${encodeURIComponent(mid)}`}
        error={error}
        confirm="Credit the wallet"
        explanation={<p>The amount goes into the main wallet through the ledger, once per reference.</p>}
        fields={
          <>
            <label for="amount">Amount in rupees (e.g. 1000.00)</label>
            <input id="amount" name="amount" inputMode="decimal" required pattern="[0-9]+(\.[0-9]{1,2})?" />
            <label for="reference">Reference (the bank transfer's id)</label>
            <input id="reference" name="reference" required maxLength={100} />
          </>
        }
      />,
    );

  router
    .route('/console/merchants/:mid/tokens/rotate')
    .get(
      confirmMerchantAction((mid) => ({
        title: `Issue another token to ${mid}`,
        action: `/console/merchants/${encodeURIComponent(mid)}/tokens/rotate`,
        confirm: 'Issue a token',
        explanation: (
          <p>The new token is shown once, on the next page. The merchant's other tokens keep working until revoked.</p>
        ),
      })),
    )
    .post(async (req, res) => {
      const viewer = signedIn(res);
      const why = whyOr422(req, res, viewer);
      if (!why) return;
      const result = await rotateToken(deps, { mid: req.params.mid, actor: actor(viewer), reason: why });
      if (result.kind === 'no-merchant') {
        merchantNotFound(res, viewer, req.params.mid);
        return;
      }
      renderPage(
        res,
        201,
        <MessagePage title="New token" viewer={viewer}>
          <p>Give this token to the merchant now: it is never shown again.</p>
          <p>
            <code class="secret">{result.token}</code>
          </p>
          <p>
            <a href={`/console/merchants/${encodeURIComponent(req.params.mid)}`}>Back to {req.params.mid}</a>
          </p>
        </MessagePage>,
      );
    });

  router
    .route('/console/merchants/:mid/tokens/:id/revoke')
    .get(
      confirmMerchantAction((mid, req) => ({
        title: `Revoke token ${String(req.params.id)} of ${mid}`,
        action: `/console/merchants/${encodeURIComponent(mid)}/tokens/${encodeURIComponent(String(req.params.id))}/revoke`,
        confirm: 'Revoke the token',
        explanation: <p>Requests with this token are refused within a few seconds on every API process.</p>,
      })),
    )
    .post(async (req, res) => {
      const viewer = signedIn(res);
      const why = reasonOf(formField(req, 'why'));
      const tokenId = /^[1-9][0-9]{0,8}$/.test(req.params.id) ? Number(req.params.id) : undefined;
      if (!why || tokenId === undefined) {
        done(res, viewer, 422, 'Say why', 'The reason is required: it goes to the audit log.');
        return;
      }
      const result = await revokeToken(deps, { mid: req.params.mid, tokenId, actor: actor(viewer), reason: why });
      if (result.kind === 'revoked') {
        res.redirect(303, `/console/merchants/${encodeURIComponent(req.params.mid)}`);
        return;
      }
      notFound(res, viewer, `MID ${req.params.mid} has no active token ${req.params.id}.`);
    });

  // Enable a webhook endpoint disabled for failing a whole retry window; its held deliveries resume
  // (docs/webhooks.md, "An endpoint that keeps failing is disabled").
  router
    .route('/console/merchants/:mid/webhook/enable')
    .get(
      confirmMerchantAction((mid) => ({
        title: `Enable the webhook endpoint of ${mid}`,
        action: `/console/merchants/${encodeURIComponent(mid)}/webhook/enable`,
        confirm: 'Enable and resume deliveries',
        explanation: (
          <p>
            The endpoint was disabled after failing a delivery for its whole retry window. Enabling it sends the
            deliveries held meanwhile, each with a fresh retry window; if it still fails, it is disabled again.
          </p>
        ),
      })),
    )
    .post(async (req, res) => {
      const viewer = signedIn(res);
      const mid = req.params.mid;
      const why = whyOr422(req, res, viewer);
      if (!why) return;
      const merchant = await merchantOr404(deps.db, req, res, viewer);
      if (!merchant) return;
      const result = await enableWebhookEndpointAction(deps, {
        merchantId: merchant.id,
        actor: actor(viewer),
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
    });

  return router;
}

function payoutNotFound(req: Request, res: Response, viewer: Viewer): void {
  notFound(res, viewer, `No payout has the Ack_no ${String(req.params.ackNo)}.`);
}

/** The operator's reason, which every action requires for the audit log, or a 422 page and undefined. */
function whyOr422(req: Request, res: Response, viewer: Viewer): string | undefined {
  const why = reasonOf(formField(req, 'why'));
  if (!why) done(res, viewer, 422, 'Say why', 'The reason is required: it goes to the audit log.');
  return why;
}

function reasonOf(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed && trimmed.length <= 400 ? trimmed : undefined;
}

function done(res: Response, viewer: Viewer, status: number, title: string, message: string): void {
  renderPage(
    res,
    status,
    <MessagePage title={title} viewer={viewer}>
      <p>{message}</p>
    </MessagePage>,
  );
}
