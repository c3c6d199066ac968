import {
  findDiscrepancy,
  findWallet,
  LEDGER_RESOLUTIONS,
  RESOLUTIONS,
  resolveDiscrepancyIn,
  type DiscrepancyView,
  type PrismaClient,
  type ResolveOutcome,
} from '@payout/db';
import { formatRupees } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf, type Person } from './approvals/person.js';

export type ResolveDiscrepancyOutcome =
  /** A resolution that posts to the ledger: it waits for a second person. */
  { kind: 'planned'; planned: PlannedRequest } | ResolveOutcome;

interface DiscrepancyResolutionParams {
  discrepancyId: string;
  resolution: string;
  note: string;
}

/**
 * Resolves a discrepancy (docs/reconciliation.md). A resolution that only records that the books are right
 * (`recovered`, `confirmed-paid`, `no-change`) is done at once; one that posts to the ledger (charging the
 * merchant, reversing a payout, crediting a pay-in) moves money, so it is planned for a second person.
 */
export async function resolveDiscrepancyAction(
  deps: { db: PrismaClient },
  input: { id: bigint; resolution: string; note: string; by: Person },
): Promise<ResolveDiscrepancyOutcome> {
  const discrepancy = await findDiscrepancy(deps.db, input.id);
  if (!discrepancy) return { kind: 'not-found' };
  if (discrepancy.status === 'RESOLVED') return { kind: 'already-resolved', discrepancy };
  const allowed = RESOLUTIONS[discrepancy.kind];
  if (!allowed.includes(input.resolution)) return { kind: 'resolution-not-allowed', allowed };
  if (LEDGER_RESOLUTIONS.includes(input.resolution)) {
    return { kind: 'planned', planned: await planLedgerResolution(deps, discrepancy, input) };
  }
  return deps.db.$transaction(async (tx) => {
    const outcome = await resolveDiscrepancyIn(tx, {
      id: input.id,
      resolution: input.resolution,
      note: input.note,
      actor: actorOf(input.by),
    });
    if (outcome.kind === 'resolved') {
      await audit(tx, { actor: actorOf(input.by), reason: input.note }, 'discrepancy.resolve', {
        merchantId: discrepancy.merchantId,
        payoutId: discrepancy.payoutId,
        detail: { discrepancyId: input.id, kind: discrepancy.kind, resolution: input.resolution, posted: false },
      });
    }
    return outcome;
  });
}

async function planLedgerResolution(
  deps: { db: PrismaClient },
  d: DiscrepancyView,
  input: { id: bigint; resolution: string; note: string },
): Promise<PlannedRequest> {
  const available = (await findWallet(deps.db, d.merchantId))?.availablePaise ?? 0n;
  // debit-merchant takes the amount from the main wallet; reverse and credit-payin put it back in.
  const availableAfter = input.resolution === 'debit-merchant' ? available - d.amountPaise : available + d.amountPaise;
  const params: DiscrepancyResolutionParams = {
    discrepancyId: input.id.toString(),
    resolution: input.resolution,
    note: input.note,
  };
  return {
    action: 'discrepancy.resolve',
    merchantId: d.merchantId,
    payoutId: d.payoutId,
    params: { ...params },
    preview: {
      summary: `Resolve discrepancy ${d.id} (${d.kind}) of ${d.ackNo} as ${input.resolution}: ${formatRupees(d.amountPaise)} ${input.resolution === 'debit-merchant' ? 'out of' : 'into'} the main wallet`,
      discrepancy: d.id.toString(),
      kind: d.kind,
      ackNo: d.ackNo,
      TransactionID: d.transactionId,
      stateHere: d.stateHere,
      resolution: input.resolution,
      amount: formatRupees(d.amountPaise),
      availableBefore: formatRupees(available),
      availableAfter: formatRupees(availableAfter),
    },
  };
}

/** The approved ledger resolution, in the approver's transaction; the discrepancy must still be open. */
export const discrepancyResolution = {
  action: 'discrepancy.resolve',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as DiscrepancyResolutionParams;
    const id = BigInt(params.discrepancyId);
    const outcome = await resolveDiscrepancyIn(tx, {
      id,
      resolution: params.resolution,
      note: `${params.note} — requested by ${request.maker}, approved by ${approver.username} (approval ${request.id})`.slice(
        0,
        500,
      ),
      actor: `operator:${approver.username}`,
    });
    switch (outcome.kind) {
      case 'resolved':
        await audit(tx, { actor: actorOf(approver), reason: params.note }, 'discrepancy.resolve', {
          merchantId: request.merchantId,
          payoutId: request.payoutId,
          detail: {
            discrepancyId: id,
            resolution: params.resolution,
            posted: outcome.posted,
            approvalId: request.id,
            requestedBy: request.maker,
            approvedBy: approver.username,
          },
        });
        return { kind: 'executed', outcome: { discrepancy: params.discrepancyId, posted: outcome.posted } };
      case 'not-found':
        return { kind: 'refused', why: `discrepancy ${params.discrepancyId} is gone` };
      case 'already-resolved':
        return {
          kind: 'refused',
          why: `discrepancy ${params.discrepancyId} was resolved meanwhile (${outcome.discrepancy.resolution} by ${outcome.discrepancy.resolvedBy})`,
        };
      case 'resolution-not-allowed':
        return { kind: 'refused', why: `${params.resolution} no longer fits discrepancy ${params.discrepancyId}` };
      case 'refused':
        return { kind: 'refused', why: outcome.reason };
    }
  },
} satisfies MoneyAction;
