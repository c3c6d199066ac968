import type { Response } from 'express';
import type { PayoutStory } from '@payout/db';
import { FAILURE_REASON_TEXT, type FailureReason } from '@payout/domain';
import { planManualResolution } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import { formField, type Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { rupees } from '../views/format.js';
import {
  payoutNotFound,
  payoutOr404,
  personOf,
  reasonOf,
  requestAndShow,
  type ActionContext,
} from './action-helpers.js';

type SettleableReason = Exclude<FailureReason, 'INSUFFICIENT_BALANCE'>;
const RESOLVABLE_REASONS = Object.keys(FAILURE_REASON_TEXT).filter(
  (r): r is SettleableReason => r !== 'INSUFFICIENT_BALANCE',
);

/**
 * Resolve a payout under manual review (docs/operations.md, "Resolving a payout under manual review"): the
 * rail is asked first, and a resolution it agrees with (or one overridden, with the reason) becomes a
 * request that a second person approves.
 */
export function resolveAction(context: ActionContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/payouts/:ackNo/resolve')
    .get(
      allow('request', async (req, res, viewer) => {
        const story = await payoutOr404(deps, req, res, viewer);
        if (story) resolvePage(res, viewer, story);
      }),
    )
    .post(
      allow('request', async (req, res, viewer) => {
        const story = await payoutOr404(deps, req, res, viewer);
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
        const plan = await planManualResolution(
          { db: deps.db, rail: deps.rail },
          {
            payout: { ackNo: story.payout.ackNo },
            request:
              outcome === 'success'
                ? { outcome: 'SUCCESS', ...(utr && { bankReference: utr }) }
                : { outcome: 'FAILED', reason: reason! },
            maker: personOf(viewer),
            reason: why,
            override: formField(req, 'override') === 'yes',
          },
        );
        switch (plan.kind) {
          case 'planned':
            await requestAndShow(context, res, viewer, plan.planned, why);
            return;
          case 'refused':
            resolvePage(res, viewer, story, 409, `Refused, nothing changed: ${plan.why}.`);
            return;
          case 'no-payout':
            payoutNotFound(req, res, viewer);
            return;
          case 'not-in-review':
            resolvePage(
              res,
              viewer,
              story,
              409,
              `The payout is ${plan.state} now, not under manual review; nothing changed.`,
            );
            return;
        }
      }),
    );
  return router;
}

function resolvePage(res: Response, viewer: Viewer, story: PayoutStory, status = 200, error?: string): void {
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
      confirm="Ask the rail, then request the resolution"
      explanation={
        <>
          <p>
            {rupees(p.amountPaise)} to {p.beneficiaryName} for {p.mid}, under manual review. The rail is asked for its
            answer first: a resolution that disagrees with it is refused unless you override it, and the override and
            its reason go to the audit log.
          </p>
          <p>
            Nothing changes yet: the resolution becomes a request that another approver approves (the rail is asked
            again then).
          </p>
        </>
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
            <input type="checkbox" name="override" value="yes" /> Override: resolve even if the rail disagrees or cannot
            be asked
          </label>
        </>
      }
    />,
  );
}
