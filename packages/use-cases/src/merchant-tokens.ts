import {
  addToken,
  findMerchantByMid,
  revokeToken as revokeStoredToken,
  type MerchantToken,
  type PrismaClient,
} from '@payout/db';
import { hashToken, newApiToken, tokenDisplayPrefix } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf } from './approvals/person.js';

export type PlanTokenIssueOutcome = { kind: 'planned'; planned: PlannedRequest } | { kind: 'no-merchant' };

interface TokenIssueParams {
  merchantId: number;
  mid: string;
}

/**
 * A new API token for a merchant, described for its approver. A token moves money (whoever holds it pays
 * out the merchant's wallet), so it is issued only on a second person's approval.
 */
export async function planTokenIssue(
  deps: { db: PrismaClient },
  input: { mid: string },
): Promise<PlanTokenIssueOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  const active = await deps.db.merchantToken.count({ where: { merchantId: merchant.id, revokedAt: null } });
  const params: TokenIssueParams = { merchantId: merchant.id, mid: merchant.mid };
  return {
    kind: 'planned',
    planned: {
      action: 'token.issue',
      merchantId: merchant.id,
      params: { ...params },
      preview: {
        summary: `Issue another API token to ${merchant.mid}; its ${active} active token(s) keep working until revoked`,
        mid: merchant.mid,
        activeTokensBefore: active,
        activeTokensAfter: active + 1,
      },
    },
  };
}

/**
 * The approved token: issued in the approver's transaction and handed to the approver once (only its
 * digest is stored), who gives it to the merchant. The old tokens keep working, so rotation needs no downtime.
 */
export const tokenIssue = {
  action: 'token.issue',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as TokenIssueParams;
    const merchant = await tx.merchant.findUnique({ where: { id: params.merchantId }, select: { id: true } });
    if (!merchant) return { kind: 'refused', why: `merchant ${params.mid} is gone` };
    const token = newApiToken();
    const row = await addToken(tx, params.merchantId, hashToken(token), tokenDisplayPrefix(token));
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'token.rotate', {
      merchantId: params.merchantId,
      detail: {
        tokenId: row.id,
        prefix: row.tokenPrefix,
        approvalId: request.id,
        requestedBy: request.maker,
        approvedBy: approver.username,
      },
    });
    return { kind: 'executed', outcome: { tokenId: row.id, prefix: row.tokenPrefix }, handOver: { token } };
  },
} satisfies MoneyAction;

export type RevokeTokenOutcome =
  { kind: 'revoked'; row: MerchantToken } | { kind: 'no-merchant' } | { kind: 'no-token' };

/**
 * Revokes one active token of the merchant; takes effect within AUTH_CACHE_TTL_MS on every API process.
 * Revoking moves no money, so one person may do it (and should, the moment a token leaks).
 */
export async function revokeToken(
  deps: { db: PrismaClient },
  input: { mid: string; actor: string; reason: string } & ({ tokenId: number } | { tokenPrefix: string }),
): Promise<RevokeTokenOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  return deps.db.$transaction(async (tx) => {
    // A token is named by its id or by the prefix `token list` and the console show (tokens are stored hashed).
    const tokenId =
      'tokenId' in input
        ? input.tokenId
        : (
            await tx.merchantToken.findFirst({
              where: { merchantId: merchant.id, tokenPrefix: input.tokenPrefix, revokedAt: null },
              select: { id: true },
            })
          )?.id;
    if (tokenId === undefined) return { kind: 'no-token' } as const;
    const revoked = await revokeStoredToken(tx, merchant.id, tokenId);
    if (!revoked) return { kind: 'no-token' } as const;
    await audit(tx, input, 'token.revoke', {
      merchantId: merchant.id,
      detail: { tokenId: revoked.id, prefix: revoked.tokenPrefix },
    });
    return { kind: 'revoked', row: revoked } as const;
  });
}
