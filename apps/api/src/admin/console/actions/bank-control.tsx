import { BANK_CONTROL_ACTIONS, setBankControlAction, type BankControlAction } from '@payout/use-cases';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import { reasonOr422, showMessage } from '../console-guards.js';
import { renderPage } from '../render.js';
import { ActionPage } from '../views/action-page.js';
import { actorOf } from './action-helpers.js';

/** The day page's bank section, where every bank action starts and ends. */
export const BANKS_SECTION = '/console/today#banks';

/** A bank's action path. */
export function bankPath(bank: string, action: BankControlAction): string {
  return `/console/banks/${encodeURIComponent(bank)}/${action}`;
}

const EXPLAIN: Record<BankControlAction, string> = {
  pause:
    'No new payout is routed to it, and nothing is sent to it at all — not even the status checks of payouts it ' +
    'holds, which wait until it is resumed. Payouts of a mode no other bank serves are held (docs/banks.md).',
  drain:
    'No new payout is routed to it; the payouts it holds are still asked about until they settle. Use it before ' +
    'taking a bank away, or to shift traffic off a bank that is slow.',
  resume: 'Routing uses it again, as its health says.',
};

/**
 * Pause, drain or resume a sponsor bank (docs/operations.md, "Banks: pausing, draining, pinning"). No money
 * moves, so an operator does it alone; the audit log keeps who and why.
 */
export function bankControlRoutes(context: ConsoleContext) {
  const { allow, deps } = context;
  const router = exactRouter();
  for (const action of Object.keys(BANK_CONTROL_ACTIONS) as BankControlAction[]) {
    router
      .route(`/console/banks/:bank/${action}`)
      .get(
        allow('act', (req, res, viewer) => {
          const bank = String(req.params.bank);
          if (!deps.banks.some((b) => b.name === bank)) {
            showMessage(res, viewer, 404, 'No such bank', `No bank is configured as ${bank}.`);
            return;
          }
          renderPage(
            res,
            200,
            <ActionPage
              viewer={viewer}
              title={`${action.charAt(0).toUpperCase()}${action.slice(1)} bank ${bank}`}
              action={bankPath(bank, action)}
              back={BANKS_SECTION}
              confirm={`${action.charAt(0).toUpperCase()}${action.slice(1)} ${bank}`}
              explanation={<p>{EXPLAIN[action]}</p>}
            />,
          );
        }),
      )
      .post(
        allow('act', async (req, res, viewer) => {
          const why = reasonOr422(req, res, viewer);
          if (!why) return;
          const bank = String(req.params.bank);
          const changed = await setBankControlAction(deps, { bank, action, actor: actorOf(viewer), reason: why });
          switch (changed.kind) {
            case 'unknown-bank':
              showMessage(res, viewer, 404, 'No such bank', `No bank is configured as ${bank}; nothing changed.`);
              return;
            case 'unchanged':
              showMessage(
                res,
                viewer,
                409,
                'Nothing to change',
                `${bank} is ${changed.state} already; nothing changed.`,
              );
              return;
            case 'changed':
              res.redirect(303, BANKS_SECTION);
          }
        }),
      );
  }
  return router;
}
