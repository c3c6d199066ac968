import {
  addToken,
  findMerchantByMid,
  lockActiveTokens,
  revokeToken as revokeStoredToken,
  tokenDigestTaken,
  type MerchantToken,
  type PrismaClient,
} from '@payout/db';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf } from './approvals/person.js';
import { readMerchantMadeToken, type MerchantMadeToken } from './merchant-made-token.js';

export type PlanTokenIssueOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  | { kind: 'no-merchant' }
  | { kind: 'invalid-token'; problems: string[] }
  /** The digest names a token already registered: the merchant makes a new one. */
  | { kind: 'token-taken' };

interface TokenIssueParams {
  merchantId: number;
  mid: string;
  token: MerchantMadeToken;
}

/**
 * A merchant that lost its tokens gets back in (docs/operations.md, "A merchant's token and webhook
 * secret"): it makes a new token itself and gives staff its prefix and digest; on a second person's
 * approval that digest is registered and every other token of the merchant revoked. A leaked token can
 * rotate and revoke only within the merchant API's rules, never this: so this is the way back in that a
 * leaked token cannot take, and the approver is told so.
 */
export async function planTokenIssue(
  deps: { db: PrismaClient },
  input: { mid: string; token: { digest: string; prefix: string } },
): Promise<PlanTokenIssueOutcome> {
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  const read = readMerchantMadeToken(input.token);
  if (read.kind === 'invalid-token') return read;
  if (await tokenDigestTaken(deps.db, read.token.digest)) return { kind: 'token-taken' };
  const active = await deps.db.merchantToken.findMany({
    where: { merchantId: merchant.id, revokedAt: null },
    select: { tokenPrefix: true },
    orderBy: { id: 'asc' },
  });
  const params: TokenIssueParams = { merchantId: merchant.id, mid: merchant.mid, token: read.token };
  return {
    kind: 'planned',
    planned: {
      action: 'token.issue',
      merchantId: merchant.id,
      params: { ...params },
      preview: {
        summary:
          `Register the API token ${read.token.prefix}… that ${merchant.mid} made itself and revoke its other ` +
          `${active.length} active token(s): the merchant's way back in, which a leaked token cannot take. ` +
          'Approve only if the merchant confirms this digest',
        mid: merchant.mid,
        tokenPrefix: read.token.prefix,
        tokenDigest: read.token.digest,
        revokes: active.map((t) => t.tokenPrefix),
        activeTokensBefore: active.length,
        activeTokensAfter: 1,
      },
    },
  };
}

/**
 * The approved token, registered in the approver's transaction under the lock every change of the
 * merchant's tokens takes; every other active token of the merchant is revoked in the same transaction,
 * whichever were active by then (a token made since the request is revoked too). Nobody is handed a token:
 * the merchant made it and holds it.
 */
export const tokenIssue = {
  action: 'token.issue',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as TokenIssueParams;
    const others = await lockActiveTokens(tx, params.merchantId);
    if (!others) return { kind: 'refused', why: `merchant ${params.mid} is gone` };
    if (await tokenDigestTaken(tx, params.token.digest)) {
      return {
        kind: 'refused',
        why: `the token ${params.token.prefix}… is already registered; the merchant makes a new one`,
      };
    }
    const row = await addToken(tx, params.merchantId, params.token.digest, params.token.prefix);
    const requested = { actor: actorOf(approver), reason: request.makerReason };
    const approval = { approvalId: request.id, requestedBy: request.maker, approvedBy: approver.username };
    await audit(tx, requested, 'token.rotate', {
      merchantId: params.merchantId,
      detail: { tokenId: row.id, prefix: row.tokenPrefix, revokes: others.map((t) => t.tokenPrefix), ...approval },
    });
    for (const other of others) {
      const revoked = await revokeStoredToken(tx, params.merchantId, other.id);
      if (!revoked) continue;
      await audit(tx, requested, 'token.revoke', {
        merchantId: params.merchantId,
        detail: { tokenId: revoked.id, prefix: revoked.tokenPrefix, replacedBy: row.tokenPrefix, ...approval },
      });
    }
    return {
      kind: 'executed',
      outcome: { tokenId: row.id, prefix: row.tokenPrefix, revoked: others.map((t) => t.tokenPrefix) },
    };
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
