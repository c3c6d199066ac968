import { z } from 'zod';
import { text, validate } from '@payout/contract';
import { RESOLUTIONS, type DiscrepancyView, type PrismaClient } from '@payout/db';
import { AppError, formatRupees } from '@payout/domain';
import { requestApproval, resolveDiscrepancyAction, type ApprovalSettings } from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { exactRouter } from '../console/console-authorization.js';
import { jsonActions, sendOk, sendRequested } from './json-actions.js';

const ALL_RESOLUTIONS = [...new Set(Object.values(RESOLUTIONS).flat())];
const DISCREPANCY_ID = /^[1-9][0-9]{0,18}$/;

const resolveBody = z.strictObject({
  resolution: z.string().refine((r) => ALL_RESOLUTIONS.includes(r), {
    error: `resolution must be one of ${ALL_RESOLUTIONS.join(', ')}`,
  }),
  /** What the bank confirmed, the ticket: the audit log and the approver read it. */
  note: text('note', 1, 500),
});

/**
 * Resolving a discrepancy on the admin JSON API (docs/reconciliation.md): a resolution that only records
 * that the books are right is done at once; one that posts to the ledger becomes a request another
 * approver approves (202), as on the console.
 */
export function discrepancyJsonRoutes(deps: { db: PrismaClient; approvals: ApprovalSettings }) {
  const router = exactRouter();
  const action = jsonActions(deps.db);
  router
    .route('/admin/discrepancies/:id/resolve')
    .post(
      action('request', async ({ req, res, person, body }) => {
        const id = String(req.params.id);
        if (!DISCREPANCY_ID.test(id)) throw new AppError('NOT_FOUND', `No discrepancy ${id}.`);
        const { resolution, note } = validate(resolveBody, body);
        const outcome = await resolveDiscrepancyAction(deps, { id: BigInt(id), resolution, note, by: person });
        switch (outcome.kind) {
          case 'not-found':
            throw new AppError('NOT_FOUND', `No discrepancy ${id}.`);
          case 'already-resolved':
            throw new AppError(
              'CONFLICT',
              `Discrepancy ${id} was already resolved (${outcome.discrepancy.resolution} by ${outcome.discrepancy.resolvedBy}); nothing changed.`,
            );
          case 'resolution-not-allowed':
            throw AppError.validation([
              {
                field: 'resolution',
                message: `resolution ${resolution} does not fit this discrepancy; use one of: ${outcome.allowed.join(', ')}`,
              },
            ]);
          case 'refused':
            throw new AppError('CONFLICT', `Discrepancy ${id} not resolved: ${outcome.reason}; nothing changed.`);
          case 'planned':
            sendRequested(res, await requestApproval(deps, { planned: outcome.planned, maker: person, reason: note }));
            return;
          case 'resolved':
            sendOk(res, { discrepancy: { ...discrepancyJson(outcome.discrepancy), ledgerPosted: outcome.posted } });
        }
      }),
    )
    .all(methodNotAllowed);
  return router;
}

/** A discrepancy as JSON: ids as strings, times as ISO text, the amount in rupees beside its paise. */
export function discrepancyJson(d: DiscrepancyView): Record<string, unknown> {
  return {
    id: d.id.toString(),
    kind: d.kind,
    status: d.status,
    source: d.source,
    payoutId: d.payoutId?.toString() ?? null,
    collectionId: d.collectionId?.toString() ?? null,
    ackNo: d.ackNo,
    merchantId: d.merchantId,
    transactionId: d.transactionId,
    amountPaise: d.amountPaise.toString(),
    amount: formatRupees(d.amountPaise),
    stateHere: d.stateHere,
    report: d.report,
    note: d.note,
    timesSeen: d.timesSeen,
    createdAt: d.createdAt.toISOString(),
    lastSeenAt: d.lastSeenAt.toISOString(),
    resolution: d.resolution,
    resolutionNote: d.resolutionNote,
    resolvedBy: d.resolvedBy,
    resolvedAt: d.resolvedAt?.toISOString() ?? null,
  };
}
