import type { PrismaClient } from '@payout/db';
import { AppError } from '@payout/domain';
import { approvalJson, planOperatorBulkBatch, requestApproval, type ApprovalDeps } from '@payout/use-cases';
import { z } from 'zod';
import { validate } from '@payout/contract';
import { methodNotAllowed } from '../../http/error-handler.js';
import { largeJsonBody } from '../../http/json-body.js';
import { sendJson } from '../../http/send-json.js';
import { apiPersonOf, consoleAuthorization, exactRouter } from '../console/console-authorization.js';

/** A 5,000-line file with every column filled, as a JSON string, stays well under this. */
const BULK_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

const bulkBody = z.strictObject({
  csv: z.string({ error: 'csv must be the CSV file as text' }).min(1, { error: 'csv must not be empty' }),
  batchId: z
    .string({ error: 'batchId must be 1 to 30 digits, as a string' })
    .regex(/^[0-9]{1,30}$/, { error: 'batchId must be 1 to 30 digits' })
    .optional(),
  why: z
    .string({ error: 'why is required: it goes to the audit log' })
    .trim()
    .min(1, { error: 'why is required: it goes to the audit log' })
    .max(400, { error: 'why must be at most 400 characters' }),
});

/**
 * POST /admin/merchants/:mid/bulk `{csv, batchId?, why}`: a person asks for a merchant's bulk batch from a
 * CSV file (what `pnpm cli payout bulk` sends). The file is read and every line judged as the console's
 * upload does it (packages/use-cases/src/intake/operator-bulk-batch.ts); a good batch is stored as a request
 * another approver approves, answered 202 with the request and its preview; nothing is reserved until then
 * (docs/operations.md, "Bulk payouts from a file"). The person is the owner of the bearer credential, or
 * a console session with its CSRF token (`allowJson`). A malformed file is 422 with its line numbers, a batch
 * this merchant cannot pay now 409, an unknown merchant 404.
 */
export function bulkJsonRoutes(deps: { db: PrismaClient } & ApprovalDeps) {
  const router = exactRouter();
  const { allowJson } = consoleAuthorization(deps.db);
  router
    .route('/admin/merchants/:mid/bulk')
    .post(
      // The role is checked before a 4 MiB body is read, and again, with the body, where the request is made.
      allowJson('request', (_req, _res, _viewer, next) => next()),
      ...largeJsonBody(BULK_BODY_LIMIT_BYTES, 'The request body must not exceed 4 MiB.'),
      allowJson('request', async (req, res, viewer) => {
        const { csv, batchId, why } = validate(bulkBody, req.body);
        const mid = String(req.params.mid);
        const plan = await planOperatorBulkBatch(deps, { mid, csv, ...(batchId && { batchId }) });
        switch (plan.kind) {
          case 'no-merchant':
            throw new AppError('NOT_FOUND', `No merchant ${mid}.`);
          case 'invalid':
            throw new AppError('VALIDATION_FAILED', plan.why);
          case 'refused':
            throw new AppError('CONFLICT', `Nothing was asked for: ${plan.why}.`);
        }
        const asked = await requestApproval(deps, { planned: plan.planned, maker: apiPersonOf(viewer), reason: why });
        if (asked.kind === 'not-allowed') throw new AppError('FORBIDDEN', `Not allowed: ${asked.why}.`);
        sendJson(res, 202, { error: false, status_code: 202, status: 'OK', approval: approvalJson(asked.request) });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
