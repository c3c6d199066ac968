import type { Request, Response } from 'express';
import { findPayoutStoryByAckNo, type PayoutStory } from '@payout/db';
import { requestApproval, type PlannedRequest, type Person } from '@payout/use-cases';
import type { consoleAuthorization } from '../console-authorization.js';
import type { ConsoleDependencies } from '../console-dependencies.js';
import { formField, type Viewer } from '../console-session.js';
import { notFound } from '../find-routes.js';
import { renderPage } from '../render.js';
import { ActionPage, type ActionPageProps } from '../views/action-page.js';
import { MessagePage } from '../views/layout.js';

/** What every action module gets: the console's services and its one authorization check. */
export interface ActionContext {
  deps: ConsoleDependencies;
  allow: ReturnType<typeof consoleAuthorization>['allow'];
}

/** Why an operator action did nothing: the page's status, title and message. */
export type Refusal = [status: number, title: string, message: string];

/** The signed-in person as the use cases name them. */
export function personOf(viewer: Viewer): Person {
  return { username: viewer.user.username, role: viewer.user.role, via: 'console' };
}

export function actorOf(viewer: Viewer): string {
  return `console:${viewer.user.username}`;
}

/** The payout the path names, or a 404 page and undefined. */
export async function payoutOr404(
  deps: ConsoleDependencies,
  req: Request,
  res: Response,
  viewer: Viewer,
): Promise<PayoutStory | undefined> {
  const story = await findPayoutStoryByAckNo(deps.db, String(req.params.ackNo));
  if (!story) payoutNotFound(req, res, viewer);
  return story ?? undefined;
}

export function payoutNotFound(req: Request, res: Response, viewer: Viewer): void {
  notFound(res, viewer, `No payout has the Ack_no ${String(req.params.ackNo)}.`);
}

/** The operator's reason, which every action requires for the audit log, or a 422 page and undefined. */
export function whyOr422(req: Request, res: Response, viewer: Viewer): string | undefined {
  const why = reasonOf(formField(req, 'why'));
  if (!why) done(res, viewer, 422, 'Say why', 'The reason is required: it goes to the audit log.');
  return why;
}

export function reasonOf(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed && trimmed.length <= 400 ? trimmed : undefined;
}

export function done(res: Response, viewer: Viewer, status: number, title: string, message: string): void {
  renderPage(
    res,
    status,
    <MessagePage title={title} viewer={viewer}>
      <p>{message}</p>
    </MessagePage>,
  );
}

/**
 * Stores a planned money action as a request for a second person and shows it: the maker lands on the
 * request's page, which says what will happen and that nothing has yet.
 */
export async function requestAndShow(
  { deps }: ActionContext,
  res: Response,
  viewer: Viewer,
  planned: PlannedRequest,
  reason: string,
): Promise<void> {
  const outcome = await requestApproval(deps, { planned, maker: personOf(viewer), reason });
  if (outcome.kind === 'not-allowed') {
    done(res, viewer, 403, 'Not allowed', `${outcome.why}. Nothing changed.`);
    return;
  }
  res.redirect(303, `/console/approvals/${outcome.request.id}`);
}

/** A payout action's confirmation page (GET): what will happen to the payout the path names. */
export function confirmPayoutAction(
  context: ActionContext,
  path: string,
  page: (story: PayoutStory) => Pick<ActionPageProps, 'title' | 'confirm' | 'explanation'>,
) {
  return async (req: Request, res: Response, viewer: Viewer) => {
    const story = await payoutOr404(context.deps, req, res, viewer);
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
    renderPage(
      res,
      200,
      <ActionPage viewer={viewer} back={`/console/merchants/${encodeURIComponent(mid)}`} {...page(mid, req)} />,
    );
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
    const why = whyOr422(req, res, viewer);
    if (!why) return;
    const ackNo = String(req.params.ackNo);
    const outcome = await act({ payout: { ackNo }, actor: actorOf(viewer), reason: why });
    if (outcome.kind === succeeded) res.redirect(303, `/console/payouts/${ackNo}`);
    else if (outcome.kind === 'no-payout') payoutNotFound(req, res, viewer);
    else {
      const refusal = refusals[outcome.kind as keyof typeof refusals] as (outcome: Outcome) => Refusal;
      done(res, viewer, ...refusal(outcome));
    }
  };
}
