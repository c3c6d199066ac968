import type { Response } from 'express';
import { formatRupees, parseRupees } from '@payout/domain';
import { planWalletCredit } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { merchantNotFound, merchantOr404, reasonOf, showMessage } from '../console-guards.js';
import { formField, type Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { requestAndShow } from './action-helpers.js';

/**
 * Credit a merchant's main wallet (a bank transfer the merchant made to us): the credit becomes a request
 * that another approver approves, once per reference (docs/operations.md, "Approvals").
 */
export function creditWalletRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  router
    .route('/console/merchants/:mid/credit')
    .get(
      allow('request', async (req, res, viewer) => {
        const merchant = await merchantOr404(deps.db, req, res, viewer);
        if (merchant) creditPage(res, viewer, merchant.mid);
      }),
    )
    .post(
      allow('request', async (req, res, viewer) => {
        const mid = String(req.params.mid);
        const amount = parseRupees(formField(req, 'amount')?.trim() ?? '');
        const reference = formField(req, 'reference')?.trim() ?? '';
        // The reason is checked with the other fields, so the form comes back with one message for all.
        const why = reasonOf(formField(req, 'why'));
        if (amount === undefined || amount <= 0n || !reference || reference.length > 100 || !why) {
          creditPage(res, viewer, mid, 422, 'Give a positive amount (at most two decimals), a reference and a reason.');
          return;
        }
        const plan = await planWalletCredit(deps, { mid, amountPaise: amount, reference });
        switch (plan.kind) {
          case 'planned':
            await requestAndShow(context, res, viewer, plan.planned, why);
            return;
          case 'already-credited':
            showMessage(
              res,
              viewer,
              200,
              'Already credited',
              `Reference ${reference} was credited before; nothing changed.`,
            );
            return;
          case 'reference-conflict':
            creditPage(
              res,
              viewer,
              mid,
              409,
              `Reference ${reference} was already used for ${formatRupees(plan.creditedPaise)}; nothing changed.`,
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

function creditPage(res: Response, viewer: Viewer, mid: string, status = 200, error?: string): void {
  renderPage(
    res,
    status,
    <ActionPage
      viewer={viewer}
      title={`Credit the wallet of ${mid}`}
      action={`/console/merchants/${encodeURIComponent(mid)}/credit`}
      back={`/console/merchants/${encodeURIComponent(mid)}`}
      error={error}
      confirm="Request the credit"
      explanation={
        <p>
          The amount goes into the main wallet through the ledger, once per reference, when another approver approves
          this request.
        </p>
      }
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
}
