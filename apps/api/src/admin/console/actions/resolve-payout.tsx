import type { Request } from 'express';
import { isSettlementFailureReason } from '@payout/domain';
import { planManualResolution, type PlanManualResolutionInput } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { payoutNotFound, payoutOr404, reasonOf } from '../console-guards.js';
import { formField } from '../console-session.js';
import { personOf, requestAndShow } from './action-helpers.js';
import { resolvePage } from './resolve-form.js';

/**
 * Resolve a payout under manual review (docs/operations.md, "Resolving a payout under manual review"): the
 * rail is asked first, and a resolution it agrees with (or one overridden, with the reason) becomes a
 * request that a second person approves.
 */
export function resolvePayoutRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/payouts/:ackNo/resolve')
    .get(
      allow('request', async (req, res, viewer) => {
        const story = await payoutOr404(deps.db, req, res, viewer);
        if (story) resolvePage(res, viewer, story);
      }),
    )
    .post(
      allow('request', async (req, res, viewer) => {
        const story = await payoutOr404(deps.db, req, res, viewer);
        if (!story) return;
        const form = resolutionForm(req);
        if (typeof form === 'string') {
          resolvePage(res, viewer, story, 422, form);
          return;
        }
        const { ackNo } = story.payout;
        const plan = await planManualResolution(
          { db: deps.db, rails: deps.rails },
          {
            payout: { ackNo },
            request: form.request,
            maker: personOf(viewer),
            reason: form.why,
            override: form.override,
          },
        );
        switch (plan.kind) {
          case 'planned':
            await requestAndShow(context, res, viewer, plan.planned, form.why);
            return;
          case 'refused':
            resolvePage(res, viewer, story, 409, `Refused, nothing changed: ${plan.why}.`);
            return;
          case 'no-payout':
            payoutNotFound(res, viewer, ackNo);
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

/** The resolution the form asks for, or what is wrong with the form. */
function resolutionForm(
  req: Request,
): { request: PlanManualResolutionInput['request']; why: string; override: boolean } | string {
  const outcome = formField(req, 'outcome');
  const utr = formField(req, 'utr')?.trim() ?? '';
  const reason = formField(req, 'reason');
  const why = reasonOf(formField(req, 'why'));
  if ((outcome !== 'success' && outcome !== 'failed') || !why || utr.length > 64 || !/^[A-Za-z0-9]*$/.test(utr)) {
    return 'Choose success or failed, say why, and give a UTR of letters and digits.';
  }
  let request: PlanManualResolutionInput['request'];
  if (outcome === 'success') request = { outcome: 'SUCCESS', ...(utr && { bankReference: utr }) };
  else if (isSettlementFailureReason(reason)) request = { outcome: 'FAILED', reason };
  else return 'Choose a failure reason.';
  return { request, why, override: formField(req, 'override') === 'yes' };
}
