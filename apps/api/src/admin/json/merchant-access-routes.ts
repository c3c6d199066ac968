import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { validate } from '@payout/contract';
import { AppError, isMid, MAX_ALLOWLIST_ENTRIES } from '@payout/domain';
import { approvalJson, planIpAllowlist, requestApproval, type ApprovalDeps } from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { sendJson } from '../../http/send-json.js';
import { apiPersonOf, consoleAuthorization, exactRouter } from '../console/console-authorization.js';
import type { Viewer } from '../console/console-session.js';

const allowlistBody = z.object({
  cidrs: z
    .array(z.string({ error: 'each CIDR must be text' }), { error: 'cidrs must be a list of CIDRs' })
    .max(MAX_ALLOWLIST_ENTRIES, { error: `cidrs may hold at most ${MAX_ALLOWLIST_ENTRIES} CIDRs` }),
  why: z
    .string({ error: 'why is required' })
    .trim()
    .min(1, { error: 'why is required' })
    .max(400, { error: 'why must be at most 400 characters' }),
});

/**
 * A merchant's access, for people (docs/operations.md, "Approvals"): POST /admin/merchants/:mid/ip-allowlist
 * `{cidrs, why}` asks for a new IP allow-list (docs/api.md, "IP allow-list") and answers 202 with the
 * request another approver decides; nothing changes until then. An empty `cidrs` asks to lift the limit.
 * The person is the owner of the bearer credential or the console session (`allowJson`).
 */
export function merchantAccessRoutes(deps: ApprovalDeps) {
  const router = exactRouter();
  const { allowJson } = consoleAuthorization(deps.db);
  const json = express.json({ limit: '16kb', strict: true });
  router
    .route('/admin/merchants/:mid/ip-allowlist')
    .post(
      json,
      allowJson('request', async (req: Request, res: Response, viewer: Viewer) => {
        const mid = String(req.params.mid);
        const { cidrs, why } = validate(allowlistBody, req.body ?? {});
        if (!isMid(mid)) throw new AppError('NOT_FOUND', `No merchant has MID ${mid}.`);
        const plan = await planIpAllowlist(deps, { mid, cidrs });
        switch (plan.kind) {
          case 'invalid':
            throw AppError.validation(plan.problems.map((message) => ({ field: 'cidrs', message })));
          case 'no-merchant':
            throw new AppError('NOT_FOUND', `No merchant has MID ${mid}.`);
          case 'unchanged':
            throw new AppError('CONFLICT', `The allow-list of ${mid} is already that list; nothing to ask for.`);
        }
        const asked = await requestApproval(deps, { planned: plan.planned, maker: apiPersonOf(viewer), reason: why });
        if (asked.kind === 'not-allowed') throw new AppError('FORBIDDEN', `${asked.why}. Nothing changed.`);
        sendJson(res, 202, { error: false, status_code: 202, status: 'OK', approval: approvalJson(asked.request) });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
