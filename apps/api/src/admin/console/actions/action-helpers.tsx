import type { Request, Response } from 'express';
import type { PayoutStory } from '@payout/db';
import { requestApproval, type PlannedRequest, type Person } from '@payout/use-cases';
import type { ConsoleContext } from '../console-dependencies.js';
import { payoutNotFound, payoutOr404, reasonOr422, showMessage } from '../console-guards.js';
import type { Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ActionPage, type ActionPageProps } from '../views/action-page.js';

/** Why an operator action did nothing: the page's status, title and message. */
export type Refusal = [status: number, title: string, message: string];

/** The signed-in person as the use cases name them. */
export function personOf(viewer: Viewer): Person {
  return { username: viewer.user.username, role: viewer.user.role, via: 'console' };
}

/** The signed-in person as the audit log names them. */
export function actorOf(viewer: Viewer): string {
  return `console:${viewer.user.username}`;
}

/** A merchant's console page, or one of its action pages under it. */
export function merchantPath(mid: string, action?: string): string {
  const page = `/console/merchants/${encodeURIComponent(mid)}`;
  return action ? `${page}/${action}` : page;
}

/**
 * Stores a planned money action as a request for a second person and shows it: the maker lands on the
 * request's page, which says what will happen and that nothing has yet.
 */
export async function requestAndShow(
  { deps }: ConsoleContext,
  res: Response,
  viewer: Viewer,
  planned: PlannedRequest,
  reason: string,
): Promise<void> {
  const outcome = await requestApproval(deps, { planned, maker: personOf(viewer), reason });
  if (outcome.kind === 'not-allowed') {
    showMessage(res, viewer, 403, 'Not allowed', `${outcome.why}. Nothing changed.`);
    return;
  }
  res.redirect(303, `/console/approvals/${outcome.request.id}`);
}

/** A payout action's confirmation page (GET): what will happen to the payout the path names. */
export function confirmPayoutAction(
  { deps }: ConsoleContext,
  path: string,
  page: (story: PayoutStory) => Pick<ActionPageProps, 'title' | 'confirm' | 'explanation'>,
) {
  return async (req: Request, res: Response, viewer: Viewer) => {
    const story = await payoutOr404(deps.db, req, res, viewer);
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
}

/** A merchant action's confirmation page (GET) for the merchant the path names. */
export function confirmMerchantAction(
  page: (mid: string, req: Request) => Pick<ActionPageProps, 'title' | 'confirm' | 'explanation' | 'action'>,
) {
  return (req: Request, res: Response, viewer: Viewer) => {
    const mid = String(req.params.mid);
    renderPage(res, 200, <ActionPage viewer={viewer} back={merchantPath(mid)} {...page(mid, req)} />);
  };
}

/**
 * A single-person payout action's POST: the use case runs on the payout the path names, with the
 * operator's reason. Once it is done the operator is back on the payout's page; every other outcome is a
 * refusal page.
 */
export function payoutActionPost<Outcome extends { kind: string }, Succeeded extends Outcome['kind']>(
  act: (request: { payout: { ackNo: string }; actor: string; reason: string }) => Promise<Outcome>,
  succeeded: Succeeded,
  refusals: {
    [Kind in Exclude<Outcome['kind'], Succeeded | 'no-payout'>]: (outcome: Extract<Outcome, { kind: Kind }>) => Refusal;
  },
) {
  return async (req: Request, res: Response, viewer: Viewer) => {
    const why = reasonOr422(req, res, viewer);
    if (!why) return;
    const ackNo = String(req.params.ackNo);
    const outcome = await act({ payout: { ackNo }, actor: actorOf(viewer), reason: why });
    if (outcome.kind === succeeded) res.redirect(303, `/console/payouts/${ackNo}`);
    else if (outcome.kind === 'no-payout') payoutNotFound(res, viewer, ackNo);
    else {
      const refusal = refusals[outcome.kind as keyof typeof refusals] as (outcome: Outcome) => Refusal;
      showMessage(res, viewer, ...refusal(outcome));
    }
  };
}

/** What every action module registers its routes with. */
export type ActionContext = ConsoleContext;
/** The shared checks of console-guards.tsx, by the names action modules call them. */
export { reasonOf, reasonOr422 as whyOr422, showMessage as done } from '../console-guards.js';
