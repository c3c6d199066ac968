import type { Response } from 'express';
import { planOwnerEnroll, staffDisableMerchantUser } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { merchantNotFound, notFound, reasonMissing, reasonOf, reasonOr422, showMessage } from '../console-guards.js';
import { formField, type Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { ownerEnrollProblem } from '../../json/merchant-people-routes.js';
import { confirmMerchantAction, merchantPath, personOf, requestAndShow } from './action-helpers.js';

/**
 * A merchant's dashboard people from the console (docs/dashboard.md, "Enrollment" and "The team"): asking
 * that the owner be bound to the enrollment they opened — or bound again after a lost phone — which another
 * approver approves (`request`), and disabling a person for an incident (`act`, one person: it only takes
 * power away), audited in the operator audit log and in the merchant's own.
 */
export function merchantPeopleRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/merchants/:mid/owner-enrollment')
    .get(
      allow('request', (req, res, viewer) => {
        ownerEnrollPage(res, viewer, String(req.params.mid), { email: '', fingerprint: '' });
      }),
    )
    .post(
      allow('request', async (req, res, viewer) => {
        const mid = String(req.params.mid);
        const typed = { email: formField(req, 'email') ?? '', fingerprint: formField(req, 'fingerprint') ?? '' };
        const why = reasonOf(formField(req, 'why'));
        if (!why) {
          ownerEnrollPage(res, viewer, mid, typed, 422, 'Give a reason: it goes to the audit log.');
          return;
        }
        const plan = await planOwnerEnroll(deps, { mid, ...typed });
        if (plan.kind === 'planned') {
          await requestAndShow(context, res, viewer, plan.planned, why);
          return;
        }
        if (plan.kind === 'no-merchant') {
          merchantNotFound(res, viewer, mid);
          return;
        }
        ownerEnrollPage(res, viewer, mid, typed, 422, `Nothing was asked: ${ownerEnrollProblem(plan)}`);
      }),
    );

  router
    .route('/console/merchants/:mid/team/:userId/disable')
    .get(
      allow(
        'act',
        confirmMerchantAction((mid, req) => ({
          title: `Disable dashboard person ${String(req.params.userId)} of ${mid}`,
          action: merchantPath(mid, `team/${encodeURIComponent(String(req.params.userId))}/disable`),
          confirm: 'Disable them',
          explanation: (
            <p>
              For an incident: they are signed out of the merchant&apos;s dashboard at once and cannot sign in. The
              merchant&apos;s audit shows that you did it. The owner or an admin of the merchant enables them again (the
              owner, through a new owner enrollment).
            </p>
          ),
        })),
      ),
    )
    .post(
      allow('act', async (req, res, viewer) => {
        const mid = String(req.params.mid);
        const userId = /^[1-9][0-9]{0,9}$/.test(String(req.params.userId)) ? Number(req.params.userId) : undefined;
        if (userId === undefined) {
          reasonMissing(res, viewer);
          return;
        }
        const why = reasonOr422(req, res, viewer);
        if (!why) return;
        const changed = await staffDisableMerchantUser(deps, personOf(viewer), { mid, userId, why });
        switch (changed.kind) {
          case 'changed':
          case 'unchanged':
            res.redirect(303, `${merchantPath(mid)}#team`);
            return;
          case 'no-merchant':
            merchantNotFound(res, viewer, mid);
            return;
          case 'unknown':
            notFound(res, viewer, `MID ${mid} has no dashboard person ${userId}.`);
            return;
          default:
            showMessage(res, viewer, 409, 'Not disabled', `Nothing changed (${changed.kind}).`);
        }
      }),
    );
  return router;
}

function ownerEnrollPage(
  res: Response,
  viewer: Viewer,
  mid: string,
  typed: { email: string; fingerprint: string },
  status = 200,
  error?: string,
): void {
  renderPage(
    res,
    status,
    <ActionPage
      viewer={viewer}
      title={`Enroll the dashboard owner of ${mid}`}
      action={merchantPath(mid, 'owner-enrollment')}
      back={merchantPath(mid)}
      error={error}
      confirm="Request the owner's enrollment"
      explanation={
        <p>
          The owner opens /dashboard/enroll on their own device with their e-mail and reads you the fingerprint it
          shows, in person or on a call. Another approver checks the fingerprint with them before approving; the owner
          then chooses their own password and authenticator. For an owner who lost their phone, the same request binds
          them again: their password, authenticator and recovery codes stop working, and they are signed out.
        </p>
      }
      fields={
        <>
          <label for="email">The owner&apos;s e-mail</label>
          <input id="email" name="email" type="email" maxLength={254} value={typed.email} />
          <label for="fingerprint">The fingerprint the owner read to you</label>
          <input id="fingerprint" name="fingerprint" maxLength={12} autocomplete="off" value={typed.fingerprint} />
        </>
      }
    />,
  );
}
