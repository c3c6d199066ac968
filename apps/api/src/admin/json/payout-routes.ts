import type { Queue } from 'bullmq';
import { z } from 'zod';
import { errorBody, optional, text, transactionIdField, validate } from '@payout/contract';
import { findWebhookEndpoint, type PrismaClient } from '@payout/db';
import { AppError, RESOLUTION_FAILURE_REASONS } from '@payout/domain';
import type { BankSettings } from '@payout/config';
import type { BankRails } from '@payout/rails';
import {
  planManualResolution,
  railSummary,
  replayWebhook,
  requestApproval,
  type ApprovalSettings,
} from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { sendJson } from '../../http/send-json.js';
import { exactRouter } from '../console/console-authorization.js';
import { jsonActions, midField, sendOk, sendRequested, whyField } from './json-actions.js';

export interface PayoutJsonDeps {
  db: PrismaClient;
  approvals: ApprovalSettings;
  /** Every configured bank's adapter (docs/banks.md): a resolution asks the payout's own bank. */
  rails: BankRails<BankSettings>;
  webhookQueue: Queue;
}

const resolveBody = z
  .strictObject({
    mid: midField,
    TransactionID: transactionIdField,
    as: z.enum(['success', 'failed'], { error: 'as must be success or failed' }),
    utr: optional(text('utr', 1, 64)),
    reason: optional(
      z.enum(RESOLUTION_FAILURE_REASONS, {
        error: `reason must be one of ${RESOLUTION_FAILURE_REASONS.join(', ')}`,
      }),
    ),
    why: whyField,
    /** Settle as asked even though the rail disagrees or cannot be asked; `why` says why (audited). */
    override: z.boolean().optional(),
  })
  .refine((b) => b.as === 'success' || b.reason !== undefined, {
    path: ['reason'],
    error: `as failed needs a reason, one of ${RESOLUTION_FAILURE_REASONS.join(', ')}`,
  });

const replayBody = z.strictObject({ mid: midField, TransactionID: transactionIdField, why: optional(whyField) });

/**
 * A person's payout actions on the admin JSON API: a manual resolution of a payout under manual review,
 * planned after asking the rail and approved by a second person (`request`, docs/operations.md, "Resolving
 * a payout under manual review"), and a webhook replay (`act`).
 */
export function payoutJsonRoutes(deps: PayoutJsonDeps) {
  const router = exactRouter();
  const action = jsonActions(deps.db);

  router
    .route('/admin/payouts/resolve')
    .post(
      action('request', async ({ res, person, body }) => {
        const input = validate(resolveBody, body);
        const plan = await planManualResolution(deps, {
          payout: { mid: input.mid, transactionId: input.TransactionID },
          request:
            input.as === 'success'
              ? { outcome: 'SUCCESS', ...(input.utr !== undefined && { bankReference: input.utr }) }
              : { outcome: 'FAILED', reason: input.reason! },
          maker: person,
          reason: input.why,
          override: input.override ?? false,
        });
        switch (plan.kind) {
          case 'no-payout':
            throw noPayout(input.TransactionID);
          case 'not-in-review':
            throw new AppError(
              'CONFLICT',
              `Payout ${input.TransactionID} is ${plan.state}, not under manual review; only payouts the worker gave up on are resolved by hand. Nothing changed.`,
            );
          case 'refused': {
            // The rail's answer goes back with the refusal: the person checks it with the bank.
            const refusal = new AppError(
              'CONFLICT',
              `Refused: ${plan.why}; nothing changed (check with the bank; an override asks anyway and is audited).`,
            );
            sendJson(res, 409, { ...errorBody(refusal), rail: railSummary(plan.rail) });
            return;
          }
          case 'planned':
            sendRequested(
              res,
              await requestApproval(deps, { planned: plan.planned, maker: person, reason: input.why }),
            );
        }
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/webhooks/replay')
    .post(
      action('act', async ({ res, actor, body }) => {
        const input = validate(replayBody, body);
        const replay = await replayWebhook(deps, {
          payout: { mid: input.mid, transactionId: input.TransactionID },
          actor,
          reason: input.why ?? 'webhook replayed',
        });
        switch (replay.kind) {
          case 'no-payout':
            throw noPayout(input.TransactionID);
          case 'not-settled':
            throw new AppError(
              'CONFLICT',
              `Payout ${input.TransactionID} is still PENDING: its webhook is sent when it settles; nothing queued.`,
            );
          case 'no-endpoint':
            throw new AppError('NOT_FOUND', `MID ${input.mid} has no webhook URL: register one first.`);
          case 'queued': {
            const merchantId = (await deps.db.merchant.findUnique({ where: { mid: input.mid }, select: { id: true } }))
              ?.id;
            const disabledAt = merchantId
              ? ((await findWebhookEndpoint(deps.db, merchantId))?.disabledAt ?? null)
              : null;
            sendOk(res, {
              replay: {
                mid: input.mid,
                TransactionID: input.TransactionID,
                payoutStatus: replay.payoutStatus,
                deliveryId: replay.deliveryId.toString(),
                queued: replay.queued,
                endpointDisabledAt: disabledAt?.toISOString() ?? null,
              },
            });
          }
        }
      }),
    )
    .all(methodNotAllowed);

  return router;
}

function noPayout(transactionId: string): AppError {
  return new AppError('NOT_FOUND', 'No such payout for this MID.', { details: { TransactionID: transactionId } });
}
