import type { Request, Response } from 'express';
import { z } from 'zod';
import type { PrismaClient } from '@payout/db';
import { AppError, isJsonNumber, isMid, parseRupees, type ConsolePermission, type Paise } from '@payout/domain';
import { text } from '@payout/contract';
import { actorOf, approvalJson, type Person, type RequestApprovalOutcome } from '@payout/use-cases';
import { jsonBody } from '../../http/json-body.js';
import { sendJson } from '../../http/send-json.js';
import { apiPersonOf, consoleAuthorization, type AuthorizedHandler } from '../console/console-authorization.js';

/**
 * What an admin JSON action is given once its person is known and allowed: the person (as the use cases
 * and the audit log name them) and the request's JSON body.
 */
export interface JsonAction {
  req: Request;
  res: Response;
  person: Person;
  /** How the audit log names the person: `cli:<username>` for a personal credential, else `admin-api:<username>`. */
  actor: string;
  body: Record<string, unknown>;
}

/**
 * The admin JSON API's actions for people (docs/operations.md, "Security model"): each is wrapped in
 * `allowJson` with the permission the console uses for the same action, so the person (their personal
 * credential, or a console session with its CSRF token) and their role are checked where the action
 * happens and before its body is read.
 */
export function jsonActions(db: PrismaClient) {
  const { allowJson } = consoleAuthorization(db);
  return (permission: ConsolePermission, act: (action: JsonAction) => Promise<void>): AuthorizedHandler =>
    allowJson(permission, async (req, res, viewer) => {
      const body = await readJsonBody(req, res);
      const person = apiPersonOf(viewer);
      await act({ req, res, person, actor: actorOf(person), body });
    });
}

/** The request's body as a JSON object, parsed losslessly (16 KiB at most); an empty POST is `{}`. */
async function readJsonBody(req: Request, res: Response): Promise<Record<string, unknown>> {
  if (!req.get('Content-Type') && (req.get('Content-Length') ?? '0') === '0') return {};
  const failed = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
  for (const step of jsonBody) {
    await new Promise<void>((resolve, reject) => {
      try {
        void step(req, res, (error?: unknown) => (error ? reject(failed(error)) : resolve()));
      } catch (error) {
        reject(failed(error));
      }
    });
  }
  return req.body as Record<string, unknown>;
}

/** A 200 (or `status`) answer in the admin API's envelope. */
export function sendOk(res: Response, body: Record<string, unknown>, status = 200): void {
  sendJson(res, status, { error: false, status_code: status, status: 'OK', ...body });
}

/** A money action's request stored for a second person: 202 with the request; a maker the flow refuses is 403. */
export function sendRequested(res: Response, outcome: RequestApprovalOutcome): void {
  if (outcome.kind === 'not-allowed') throw new AppError('FORBIDDEN', `Not allowed: ${outcome.why}. Nothing changed.`);
  sendOk(res, { approval: approvalJson(outcome.request) }, 202);
}

/** A MID in a path or a body, by the contract's rule for MIDs. */
export const midField = z
  .string({ error: 'mid is required' })
  .refine(isMid, { error: 'mid must be 1 to 64 letters, digits, _ or -' });

/** Why a person does something: the audit log and the approver read it. */
export const whyField = text('why', 1, 400);

/** A positive rupee amount with at most two decimals, as a JSON number or a string: paise, exactly. */
export const rupeeAmountField = z.preprocess(
  (value) => (isJsonNumber(value) ? value.toString() : value),
  z.string({ error: 'amount must be a rupee amount such as 1000.00' }).transform((value, ctx): Paise => {
    const paise = parseRupees(value.trim());
    if (paise === undefined || paise <= 0n) {
      ctx.addIssue({ code: 'custom', message: 'amount must be a positive rupee amount with at most two decimals' });
      return z.NEVER;
    }
    return paise;
  }),
);

/** A path's MID, checked like a body's (422 when malformed). */
export function midOf(req: Request): string {
  return validatePath(z.object({ mid: midField }), req).mid;
}

function validatePath<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  const result = schema.safeParse(req.params);
  if (!result.success) {
    throw AppError.validation(result.error.issues.map((i) => ({ field: String(i.path[0]), message: i.message })));
  }
  return result.data;
}
