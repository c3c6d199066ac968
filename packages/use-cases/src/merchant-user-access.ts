import {
  lockActiveTokens,
  merchantUserActor,
  recordMerchantAudit,
  revokeToken as revokeStoredToken,
  setIpAllowlist,
  setWebhookUrl,
  type MerchantAuditEntry,
  type PrismaClient,
  type Transaction,
  type WebhookEndpointView,
} from '@payout/db';
import { readAllowlist, type WebhookDestinationPolicy } from '@payout/domain';
import { audit } from './audit.js';
import { addNewToken, type RotateOwnTokenOutcome, type TokenHolder } from './merchant-own-tokens.js';
import { webhookDestinationProblem } from './merchants/webhook-destination.js';

// A merchant's own people changing its access on the merchant dashboard (docs/dashboard.md): its tokens,
// webhook endpoint and IP allow-list. The merchant owns these, as it does through its own API (docs/api.md,
// "Token rotation", "IP allow-list"), so a change is made at once — not a money action with a second
// person, as staff's change of the same thing is. Each change is written with its entries in the same
// transaction: the merchant's audit (merchant_audit_events, what the dashboard's Audit page reads) and the
// operator audit log, where staff see every change of a merchant's credentials whoever made it.

/** The merchant user making the change, as the dashboard's session knows them. */
export interface MerchantUserChange extends TokenHolder {
  user: { id: number; email: string };
}

/** Both audit entries of one change, in its transaction. Only ever prefixes of secrets in `detail`. */
async function recordChange(
  tx: Transaction,
  change: MerchantUserChange,
  action: 'token.rotate' | 'token.revoke' | 'merchant.ip-allowlist' | 'webhook.register',
  merchantAction: string,
  detail: NonNullable<MerchantAuditEntry['detail']>,
): Promise<void> {
  await recordMerchantAudit(tx, {
    merchantId: change.merchantId,
    actor: merchantUserActor(change.user),
    action: merchantAction,
    detail,
  });
  // The operator log's actor is at most 100 characters: the person by id, which the merchant's audit names in full.
  await audit(tx, { actor: `merchant-user:${change.user.id}`, reason: 'changed on the merchant dashboard' }, action, {
    merchantId: change.merchantId,
    detail,
  });
}

/**
 * A new API token, made by the merchant's person: handed back once (only its digest and prefix are stored,
 * only the prefix audited), within the same limit of active tokens as the merchant's own rotation.
 */
export async function rotateTokenByMerchantUser(
  deps: { db: PrismaClient },
  change: MerchantUserChange,
): Promise<RotateOwnTokenOutcome> {
  return addNewToken(deps, change.merchantId, (tx, added) =>
    recordChange(tx, change, 'token.rotate', 'token.rotate', added),
  );
}

export type RevokeTokenByMerchantUserOutcome =
  | { kind: 'revoked'; prefix: string }
  /** The merchant has no active token with this id. */
  | { kind: 'no-token' }
  /** It is the merchant's only active token: revoking it would stop every request of the merchant. */
  | { kind: 'last-token' };

/**
 * Revokes one of the merchant's active tokens, never its last, under the lock every change of its tokens
 * takes (lockActiveTokens), so two revocations at once still leave one. A person is no token, so the rule
 * that a token never revokes an older one (docs/api.md, "Token rotation") has nothing to bite on here: the
 * person signed in with a password and a second factor is the merchant's way back from a leaked token.
 */
export async function revokeTokenByMerchantUser(
  deps: { db: PrismaClient },
  change: MerchantUserChange & { tokenId: number },
): Promise<RevokeTokenByMerchantUserOutcome> {
  return deps.db.$transaction(async (tx) => {
    const active = (await lockActiveTokens(tx, change.merchantId)) ?? [];
    if (!active.some((t) => t.id === change.tokenId)) return { kind: 'no-token' } as const;
    if (active.length === 1) return { kind: 'last-token' } as const;
    const revoked = await revokeStoredToken(tx, change.merchantId, change.tokenId);
    if (!revoked) return { kind: 'no-token' } as const;
    await recordChange(tx, change, 'token.revoke', 'token.revoke', {
      tokenId: revoked.id,
      prefix: revoked.tokenPrefix,
    });
    return { kind: 'revoked', prefix: revoked.tokenPrefix } as const;
  });
}

export type SetAllowlistByMerchantUserOutcome =
  | { kind: 'set'; before: string[]; after: string[] }
  | { kind: 'invalid'; problems: string[] }
  | { kind: 'unchanged'; cidrs: string[] };

/**
 * The merchant's IP allow-list, replaced by its own person: read by the one reader of addresses
 * (readAllowlist, ip-address.ts) as staff's change is, and stored at once. API processes use it within
 * AUTH_CACHE_TTL_MS, as any change of a merchant's credentials.
 */
export async function setAllowlistByMerchantUser(
  deps: { db: PrismaClient },
  change: MerchantUserChange & { cidrs: readonly string[] },
): Promise<SetAllowlistByMerchantUserOutcome> {
  const read = readAllowlist(change.cidrs);
  if (read.kind === 'invalid') return read;
  return deps.db.$transaction(async (tx) => {
    const current = await tx.merchant.findUnique({ where: { id: change.merchantId }, select: { ipAllowlist: true } });
    const unchanged =
      current?.ipAllowlist.length === read.cidrs.length && current.ipAllowlist.every((c, i) => c === read.cidrs[i]);
    if (!current || unchanged) return { kind: 'unchanged', cidrs: current?.ipAllowlist ?? [] } as const;
    const before = (await setIpAllowlist(tx, change.merchantId, read.cidrs)) ?? [];
    await recordChange(tx, change, 'merchant.ip-allowlist', 'allowlist.set', { before, after: read.cidrs });
    return { kind: 'set', before, after: read.cidrs } as const;
  });
}

export type SetWebhookUrlByMerchantUserOutcome =
  { kind: 'registered'; endpoint: WebhookEndpointView; awaitingSecret: boolean } | { kind: 'refused-url'; why: string };

/**
 * Points the merchant's webhooks at a URL, judged by the rule every registration is (webhookDestinationProblem:
 * docs/webhooks.md, "Where a webhook may point"). The signing secret is untouched: a moved endpoint keeps it,
 * a new one has none until the merchant fetches one through its API, its deliveries held meanwhile.
 */
export async function setWebhookUrlByMerchantUser(
  deps: { db: PrismaClient; destinations: WebhookDestinationPolicy },
  change: MerchantUserChange & { url: string },
): Promise<SetWebhookUrlByMerchantUserOutcome> {
  const problem = await webhookDestinationProblem(change.url, deps.destinations);
  if (problem) return { kind: 'refused-url', why: problem };
  return deps.db.$transaction(async (tx) => {
    const { endpoint, created } = await setWebhookUrl(tx, change.merchantId, change.url);
    const awaitingSecret = endpoint.secretPrefix === null;
    await recordChange(tx, change, 'webhook.register', 'webhook.url', {
      url: endpoint.url,
      secretPrefix: endpoint.secretPrefix,
      created,
      awaitingSecret,
    });
    return { kind: 'registered', endpoint, awaitingSecret } as const;
  });
}
