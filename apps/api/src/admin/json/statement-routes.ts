import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { AppError } from '@payout/domain';
import type { PrismaClient } from '@payout/db';
import { validate } from '@payout/contract';
import {
  reconcileStatementRun,
  statementRunJson,
  type ApprovalSettings,
  type StatementSettings,
} from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { largeJsonBody } from '../../http/json-body.js';
import { sendJson } from '../../http/send-json.js';
import { apiPersonOf, consoleAuthorization, exactRouter } from '../console/console-authorization.js';

/** Where statements are applied from: the checks of this installation and the largest body it reads. */
export interface StatementRouteSettings extends StatementSettings {
  /** STATEMENT_MAX_BYTES: the largest body (the files' text) this route reads. */
  maxBytes: number;
}

const statementBody = z.strictObject({
  files: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1).max(1000),
        text: z.string(),
      }),
      { error: 'files must be a list of { name, text }' },
    )
    .min(1, { error: 'name at least one statement file' })
    .max(400),
  /** A bank CSV export's profile, as its JSON file holds it (docs/reconciliation-formats.md). */
  profile: z.record(z.string(), z.unknown()).optional(),
  /** The statement's bank (an alias of BANKS); by default the bank whose settlement account it is for. */
  bank: z.string().trim().min(1).max(32).optional(),
});

/**
 * `POST /admin/statements` (docs/reconciliation.md, "Planning and applying"; docs/api.md): a person applies
 * a statement run with their own credential — the files' text in the body, a range of days already resolved
 * to its files by the caller. The files are accepted whole, matched and the run stored; when it settles,
 * reverses or closes anything, all it found waits for one request another approver approves
 * (docs/reconciliation.md, "When a run takes effect"). Answers the run as `recon statement --apply
 * --json` prints it; a file that cannot be applied is 422, an installation that may not apply statements
 * (no settlement account in production) 409, and nothing is stored either way.
 */
export function statementRoutes(deps: {
  db: PrismaClient;
  approvals: ApprovalSettings;
  statements: StatementRouteSettings;
}) {
  const router = exactRouter();
  const { allowJson } = consoleAuthorization(deps.db);
  const body = largeJsonBody(
    deps.statements.maxBytes,
    `The statement run is larger than the ${deps.statements.maxBytes} bytes the admin listener reads (STATEMENT_MAX_BYTES: its files together, as JSON); nothing applied.`,
  );
  router
    .route('/admin/statements')
    .post(
      allowJson('request', async (req, res, viewer) => {
        // Read only once the person is known and allowed: the body may be STATEMENT_MAX_BYTES.
        await readBody(body, req, res);
        const input = validate(statementBody, req.body);
        const outcome = await reconcileStatementRun(deps, {
          files: input.files,
          ...(input.profile !== undefined && { profile: input.profile }),
          ...(input.bank !== undefined && { bank: input.bank }),
          by: apiPersonOf(viewer),
        });
        switch (outcome.kind) {
          case 'not-allowed':
            throw new AppError('FORBIDDEN', `Not allowed: ${outcome.why}.`);
          case 'not-configured':
            throw new AppError('CONFLICT', `Refused, nothing stored: ${outcome.why}.`);
          case 'refused-file':
            throw new AppError('VALIDATION_FAILED', outcome.why);
          case 'reconciled':
            sendJson(res, 200, {
              error: false,
              status_code: 200,
              status: 'OK',
              ...statementRunJson(outcome.report, outcome.file, outcome.approval),
            });
        }
      }),
    )
    .all(methodNotAllowed);
  return router;
}

/**
 * Runs body-reading middleware in order, as Express would (an error skips to the error handlers), and
 * settles once the body is read or refused.
 */
async function readBody(
  handlers: readonly (RequestHandler | ErrorRequestHandler)[],
  req: Request,
  res: Response,
): Promise<void> {
  let failure: unknown = undefined;
  for (const handler of handlers) {
    const handlesErrors = handler.length === 4;
    if (handlesErrors !== (failure !== undefined)) continue;
    failure = await new Promise<unknown>((settle) => {
      try {
        if (handlesErrors) (handler as ErrorRequestHandler)(failure, req, res, settle);
        else (handler as RequestHandler)(req, res, settle);
      } catch (error) {
        settle(error);
      }
    });
  }
  if (failure instanceof Error) throw failure;
  if (failure !== undefined) throw new Error(`reading the body failed: ${JSON.stringify(failure)}`);
}
