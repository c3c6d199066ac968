import { findMerchantByMid, setIpAllowlist, type PrismaClient } from '@payout/db';
import { readAllowlist } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf } from './approvals/person.js';

export type PlanIpAllowlistOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  | { kind: 'no-merchant' }
  | { kind: 'invalid'; problems: string[] }
  /** The list asked for is the list the merchant has. */
  | { kind: 'unchanged'; cidrs: string[] };

interface IpAllowlistParams {
  merchantId: number;
  mid: string;
  before: string[];
  after: string[];
}

const described = (cidrs: readonly string[]) => (cidrs.length === 0 ? 'any address' : cidrs.join(', '));

/**
 * A new IP allow-list for a merchant (docs/api.md, "IP allow-list"), described for its approver with the
 * list before and after. Where a merchant's tokens work decides who can pay out its wallet (an empty list,
 * or a wide one, lets a leaked token work from anywhere), so one person asks and another approves.
 */
export async function planIpAllowlist(
  deps: { db: PrismaClient },
  input: { mid: string; cidrs: readonly string[] },
): Promise<PlanIpAllowlistOutcome> {
  const read = readAllowlist(input.cidrs);
  if (read.kind === 'invalid') return read;
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  const before = merchant.ipAllowlist;
  const after = read.cidrs;
  if (sameList(before, after)) return { kind: 'unchanged', cidrs: before };
  const params: IpAllowlistParams = { merchantId: merchant.id, mid: merchant.mid, before, after };
  return {
    kind: 'planned',
    planned: {
      action: 'merchant.ip-allowlist',
      merchantId: merchant.id,
      params: { ...params },
      preview: {
        summary: `Let ${merchant.mid}'s tokens work from ${described(after)} (today: ${described(before)})`,
        mid: merchant.mid,
        before,
        after,
        added: after.filter((c) => !before.includes(c)),
        removed: before.filter((c) => !after.includes(c)),
      },
    },
  };
}

/**
 * The approved list, stored in the approver's transaction. Refused if the list changed since it was asked
 * for: the approver agreed to a change from the list they were shown. API processes use it within
 * AUTH_CACHE_TTL_MS, like any change of a merchant's credentials.
 */
export const ipAllowlistChange = {
  action: 'merchant.ip-allowlist',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as IpAllowlistParams;
    const current = await tx.merchant.findUnique({ where: { id: params.merchantId }, select: { ipAllowlist: true } });
    if (!current) return { kind: 'refused', why: `merchant ${params.mid} is gone` };
    if (!sameList(current.ipAllowlist, params.before)) {
      return {
        kind: 'refused',
        why: `the allow-list of ${params.mid} changed since the request: it is now ${described(current.ipAllowlist)}`,
      };
    }
    const before = await setIpAllowlist(tx, params.merchantId, params.after);
    if (before === null) return { kind: 'refused', why: `merchant ${params.mid} is gone` };
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'merchant.ip-allowlist', {
      merchantId: params.merchantId,
      detail: {
        before,
        after: params.after,
        approvalId: request.id,
        requestedBy: request.maker,
        approvedBy: approver.username,
      },
    });
    return { kind: 'executed', outcome: { before, after: params.after } };
  },
} satisfies MoneyAction;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}
