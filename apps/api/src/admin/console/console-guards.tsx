import type { Request, Response } from 'express';
import {
  findApprovalRequest,
  findMerchantByMid,
  findPayoutStoryByAckNo,
  type ApprovalRequestView,
  type Merchant,
  type PayoutStory,
  type PrismaClient,
} from '@payout/db';
import { ACK_NO_PATTERN, isMid } from '@payout/domain';
import { formField, type Viewer } from './console-session.js';
import { renderPage } from './render.js';
import { MessagePage } from './views/layout.js';

/*
 * What every console page and action checks before it shows or changes anything, each written once here:
 * the subject its path names (a payout by Ack_no, a merchant by MID, an approval request by number) or a
 * 404 page, and the operator's reason or a 422 page. The third check, the viewer's role, is `allow` in
 * console-authorization.tsx, wrapped around each route where it is registered.
 */

/** A short page that says what happened: not found, refused, done. */
export function showMessage(res: Response, viewer: Viewer, status: number, title: string, message: string): void {
  renderPage(
    res,
    status,
    <MessagePage title={title} viewer={viewer}>
      <p>{message}</p>
    </MessagePage>,
  );
}

export function notFound(res: Response, viewer: Viewer, message: string): void {
  showMessage(res, viewer, 404, 'Not found', message);
}

export function payoutNotFound(res: Response, viewer: Viewer, ackNo: string): void {
  notFound(res, viewer, `No payout has the Ack_no ${ackNo}.`);
}

export function merchantNotFound(res: Response, viewer: Viewer, mid: string): void {
  notFound(res, viewer, `No merchant has the MID ${mid}.`);
}

/** The payout the path's Ack_no names, with its story, or a 404 page and undefined. */
export async function payoutOr404(
  db: PrismaClient,
  req: Request,
  res: Response,
  viewer: Viewer,
): Promise<PayoutStory | undefined> {
  const ackNo = String(req.params.ackNo);
  const story = ACK_NO_PATTERN.test(ackNo) ? await findPayoutStoryByAckNo(db, ackNo) : null;
  if (!story) payoutNotFound(res, viewer, ackNo);
  return story ?? undefined;
}

/** The merchant the path's MID names, or a 404 page and undefined. */
export function merchantOr404(
  db: PrismaClient,
  req: Request,
  res: Response,
  viewer: Viewer,
): Promise<Merchant | undefined> {
  return merchantReadOr404(req, res, viewer, (mid) => findMerchantByMid(db, mid));
}

/** The merchant the path's MID names as `read` reads it (a page may need more than the merchant row). */
export async function merchantReadOr404<Found>(
  req: Request,
  res: Response,
  viewer: Viewer,
  read: (mid: string) => Promise<Found | null>,
): Promise<Found | undefined> {
  const mid = String(req.params.mid);
  const merchant = isMid(mid) ? await read(mid) : null;
  if (!merchant) merchantNotFound(res, viewer, mid);
  return merchant ?? undefined;
}

const REQUEST_ID = /^[1-9][0-9]{0,18}$/;

/** The approval request the path's number names, or a 404 page and undefined. */
export async function approvalRequestOr404(
  db: PrismaClient,
  req: Request,
  res: Response,
  viewer: Viewer,
): Promise<ApprovalRequestView | undefined> {
  const id = String(req.params.id);
  const request = REQUEST_ID.test(id) ? await findApprovalRequest(db, BigInt(id)) : null;
  if (!request) notFound(res, viewer, `There is no request #${id}.`);
  return request ?? undefined;
}

/** A reason the audit log keeps: some text, at most 400 characters; anything else is no reason. */
export function reasonOf(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed && trimmed.length <= 400 ? trimmed : undefined;
}

/** Which form field carries a required reason, and what the person is told when it is missing. */
export interface RequiredReason {
  field: string;
  missing: string;
}

/** The operator's "why": every action asks for it, for the audit log. */
export const WHY: RequiredReason = { field: 'why', missing: 'The reason is required: it goes to the audit log.' };

/** The reason the form's field gives, or a 422 page saying it is required and undefined. */
export function reasonOr422(req: Request, res: Response, viewer: Viewer, required = WHY): string | undefined {
  const reason = reasonOf(formField(req, required.field));
  if (!reason) reasonMissing(res, viewer, required);
  return reason;
}

/** The 422 page of a form sent without its reason: nothing was done. */
export function reasonMissing(res: Response, viewer: Viewer, required = WHY): void {
  showMessage(res, viewer, 422, 'Say why', required.missing);
}
