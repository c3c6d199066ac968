import { z } from 'zod';
import { AppError } from '@payout/domain';
import { text, validate } from '@payout/contract';
import {
  planOwnerEnroll,
  requestApproval,
  staffDisableMerchantUser,
  type ApprovalDeps,
  type PlanOwnerEnrollOutcome,
  type TeamChangeOutcome,
} from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { exactRouter } from '../console/console-authorization.js';
import { jsonActions, midOf, sendOk, sendRequested, whyField } from './json-actions.js';

const ownerEnrollBody = z.strictObject({
  email: text('email', 3, 254),
  fingerprint: text('fingerprint', 8, 12),
  why: whyField,
});
const disableBody = z.strictObject({ why: whyField });

/**
 * Staff's doors to a merchant's dashboard people (docs/dashboard.md, "Enrollment" and "The team"): binding
 * the owner to their own enrollment, or again after a lost phone (`request`, a second person approves), and
 * disabling a person for an incident (`act`). The console and the CLI call the same use cases.
 */
export function merchantPeopleJsonRoutes(deps: ApprovalDeps) {
  const router = exactRouter();
  const action = jsonActions(deps.db);

  router
    .route('/admin/merchants/:mid/owner-enrollment')
    .post(
      action('request', async ({ req, res, person, body }) => {
        const mid = midOf(req);
        const input = validate(ownerEnrollBody, body);
        const plan = await planOwnerEnroll(deps, { mid, email: input.email, fingerprint: input.fingerprint });
        if (plan.kind !== 'planned') throw ownerEnrollRefusal(mid, plan);
        sendRequested(res, await requestApproval(deps, { planned: plan.planned, maker: person, reason: input.why }));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/merchants/:mid/team/:userId/disable')
    .post(
      action('act', async ({ req, res, person, body }) => {
        const mid = midOf(req);
        const { why } = validate(disableBody, body);
        const userId = /^[1-9][0-9]{0,9}$/.test(String(req.params.userId)) ? Number(req.params.userId) : 0;
        const changed = await staffDisableMerchantUser(deps, person, { mid, userId, why });
        if (changed.kind === 'no-merchant') throw new AppError('NOT_FOUND', `No merchant with MID ${mid}.`);
        if (changed.kind !== 'changed' && changed.kind !== 'unchanged') throw disableRefusal(changed);
        sendOk(res, { disabled: true, userId });
      }),
    )
    .all(methodNotAllowed);
  return router;
}

/** Why an owner enrollment was not asked for, as the admin API's error. */
export function ownerEnrollProblem(plan: Exclude<PlanOwnerEnrollOutcome, { kind: 'planned' }>): string {
  switch (plan.kind) {
    case 'no-merchant':
      return 'No such merchant.';
    case 'bad-email':
      return 'email must be an e-mail address.';
    case 'bad-fingerprint':
      return 'fingerprint is eight letters and digits, as the owner’s /dashboard/enroll page shows it.';
    case 'no-enrollment':
      return `No open enrollment of that e-mail has fingerprint ${plan.fingerprint}: the owner opens one at /dashboard/enroll and reads it out.`;
    case 'not-the-owner':
      return plan.owner === null
        ? 'That e-mail signs in to another merchant’s dashboard.'
        : `The owner of this merchant is ${plan.owner}.`;
  }
}

function ownerEnrollRefusal(mid: string, plan: Exclude<PlanOwnerEnrollOutcome, { kind: 'planned' }>): AppError {
  if (plan.kind === 'no-merchant') return new AppError('NOT_FOUND', `No merchant with MID ${mid}.`);
  if (plan.kind === 'not-the-owner') return new AppError('CONFLICT', ownerEnrollProblem(plan));
  return AppError.validation([
    { field: plan.kind === 'bad-email' ? 'email' : 'fingerprint', message: ownerEnrollProblem(plan) },
  ]);
}

function disableRefusal(changed: Exclude<TeamChangeOutcome, { kind: 'changed' | 'unchanged' }>): AppError {
  if (changed.kind === 'unknown') return new AppError('NOT_FOUND', 'No such person on this merchant’s team.');
  return new AppError('CONFLICT', `Not disabled (${changed.kind}).`);
}
