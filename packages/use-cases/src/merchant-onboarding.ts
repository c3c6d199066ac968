import { randomInt } from 'node:crypto';
import {
  addMerchantUser,
  createMerchant,
  findMerchantByMid,
  merchantUserEmailTaken,
  MidTakenError,
  recordMerchantAudit,
  tokenDigestTaken,
  type PrismaClient,
} from '@payout/db';
import { formatRupees, merchantUserEmail, type Paise } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf } from './approvals/person.js';
import { readMerchantMadeToken, type MerchantMadeToken } from './merchant-made-token.js';
import { MERCHANT_LIMIT_CEILING } from './merchants/merchant-admin.js';

// A new merchant (docs/operations.md, "A merchant's token and webhook secret"): one person asks, with the
// digest of the token the merchant made itself; another approves; no answer to either carries a token.

export type PlanMerchantCreateOutcome =
  | { kind: 'planned'; planned: PlannedRequest; mid: string }
  | { kind: 'mid-taken'; mid: string }
  | { kind: 'limit-too-high'; field: 'impsLimit' | 'upiLimit'; ceiling: string }
  | { kind: 'invalid-token'; problems: string[] }
  /** The digest names a token already registered: the merchant makes a new one. */
  | { kind: 'token-taken' }
  /** The owner's e-mail is no e-mail, or already signs in to a dashboard. */
  | { kind: 'bad-owner-email'; problem: string };

export interface PlanMerchantCreateInput {
  name: string;
  /** Drawn when not given (M and 12 digits), so the request, and its approver, already know it. */
  mid?: string;
  impsLimitPaise?: Paise;
  upiLimitPaise?: Paise;
  /** As the merchant's `payout-token` printed them. */
  token: { digest: string; prefix: string };
  /**
   * The e-mail of the merchant's owner on its dashboard (docs/dashboard.md, "Enrollment"): made with the
   * merchant, and bound to their own enrollment later by a `merchant-owner.enroll` request.
   */
  ownerEmail?: string;
}

interface MerchantCreateParams {
  mid: string;
  name: string;
  /** Paise as text (the request's params are JSON); null for the default limit. */
  impsLimitPaise: string | null;
  upiLimitPaise: string | null;
  token: MerchantMadeToken;
  ownerEmail?: string;
}

/**
 * A new merchant described for its approver: its MID, name and limits, and the prefix and digest of the
 * token the merchant made itself. A merchant's token pays out its wallet, so whoever registers one must not
 * also hold it: the merchant keeps the token, and a second person approves the registration.
 */
export async function planMerchantCreate(
  deps: { db: PrismaClient },
  input: PlanMerchantCreateInput,
): Promise<PlanMerchantCreateOutcome> {
  if (input.impsLimitPaise !== undefined && input.impsLimitPaise > MERCHANT_LIMIT_CEILING.imps) {
    return { kind: 'limit-too-high', field: 'impsLimit', ceiling: formatRupees(MERCHANT_LIMIT_CEILING.imps) };
  }
  if (input.upiLimitPaise !== undefined && input.upiLimitPaise > MERCHANT_LIMIT_CEILING.upi) {
    return { kind: 'limit-too-high', field: 'upiLimit', ceiling: formatRupees(MERCHANT_LIMIT_CEILING.upi) };
  }
  const ownerEmail = input.ownerEmail === undefined ? undefined : merchantUserEmail(input.ownerEmail);
  if (input.ownerEmail !== undefined && !ownerEmail) {
    return { kind: 'bad-owner-email', problem: 'ownerEmail must be an e-mail address' };
  }
  if (ownerEmail && (await merchantUserEmailTaken(deps.db, ownerEmail))) {
    return { kind: 'bad-owner-email', problem: `${ownerEmail} already signs in to a merchant dashboard` };
  }
  const read = readMerchantMadeToken(input.token);
  if (read.kind === 'invalid-token') return read;
  if (await tokenDigestTaken(deps.db, read.token.digest)) return { kind: 'token-taken' };
  const mid = await unusedMid(deps.db, input.mid);
  if (mid === undefined) return { kind: 'mid-taken', mid: input.mid ?? '(generated)' };
  const params: MerchantCreateParams = {
    mid,
    name: input.name,
    impsLimitPaise: input.impsLimitPaise?.toString() ?? null,
    upiLimitPaise: input.upiLimitPaise?.toString() ?? null,
    token: read.token,
    ...(ownerEmail && { ownerEmail }),
  };
  const limit = (paise: Paise | undefined, ceiling: Paise) =>
    paise === undefined ? `${formatRupees(ceiling)} (the default)` : formatRupees(paise);
  return {
    kind: 'planned',
    mid,
    planned: {
      action: 'merchant.create',
      merchantId: null,
      params: { ...params },
      preview: {
        summary:
          `Create merchant ${mid} (${input.name}) with the API token it made itself, ${read.token.prefix}…: ` +
          'approve only if the merchant confirms this digest',
        mid,
        name: input.name,
        impsLimit: limit(input.impsLimitPaise, MERCHANT_LIMIT_CEILING.imps),
        upiLimit: limit(input.upiLimitPaise, MERCHANT_LIMIT_CEILING.upi),
        tokenPrefix: read.token.prefix,
        tokenDigest: read.token.digest,
        ...(ownerEmail && { ownerEmail }),
      },
    },
  };
}

/**
 * The approved merchant, created in the approver's transaction with the token digest it asked for.
 * Refused when the MID or the digest was taken meanwhile (another request approved first).
 */
export const merchantCreate = {
  action: 'merchant.create',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as MerchantCreateParams;
    if (await findMerchantByMid(tx, params.mid)) return { kind: 'refused', why: `MID ${params.mid} is already taken` };
    if (await tokenDigestTaken(tx, params.token.digest)) {
      return {
        kind: 'refused',
        why: `the token ${params.token.prefix}… is already registered; the merchant makes a new one`,
      };
    }
    if (params.ownerEmail !== undefined && (await merchantUserEmailTaken(tx, params.ownerEmail))) {
      return { kind: 'refused', why: `${params.ownerEmail} signs in to another merchant's dashboard already` };
    }
    let created;
    try {
      created = await createMerchant(tx, {
        mid: params.mid,
        name: params.name,
        firstTokenHash: params.token.digest,
        firstTokenPrefix: params.token.prefix,
        ...(params.impsLimitPaise !== null && { impsMaxPaise: BigInt(params.impsLimitPaise) }),
        ...(params.upiLimitPaise !== null && { upiMaxPaise: BigInt(params.upiLimitPaise) }),
      });
    } catch (error) {
      // A request approved at the same moment took the MID or the digest first; this one changes nothing.
      if (error instanceof MidTakenError)
        return { kind: 'refused', why: `MID ${params.mid} or its token was taken meanwhile` };
      throw error;
    }
    // The owner is made unbound: only a merchant-owner.enroll request binds them to their own enrollment.
    const owner =
      params.ownerEmail === undefined
        ? null
        : await addMerchantUser(tx, {
            merchantId: created.id,
            email: params.ownerEmail,
            role: 'OWNER',
            enrollmentDigest: null,
            addedBy: actorOf(approver),
          });
    if (params.ownerEmail !== undefined && !owner) {
      // Another approval took the e-mail in the moment since the check above: the whole creation rolls back.
      throw new Error(`the owner's e-mail ${params.ownerEmail} was taken meanwhile`);
    }
    if (owner) {
      await recordMerchantAudit(tx, {
        merchantId: created.id,
        actor: actorOf(approver),
        action: 'team.owner',
        detail: { userId: owner.id, email: owner.email, requestedBy: request.maker },
      });
    }
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'merchant.create', {
      merchantId: created.id,
      detail: {
        mid: created.mid,
        name: created.name,
        tokenPrefix: params.token.prefix,
        ...(owner && { ownerEmail: owner.email }),
        approvalId: request.id,
        requestedBy: request.maker,
        approvedBy: approver.username,
      },
    });
    return {
      kind: 'executed',
      outcome: { merchantId: created.id, mid: created.mid, tokenPrefix: params.token.prefix },
    };
  },
} satisfies MoneyAction;

/** The MID asked for while it is free, or a drawn one that is (five draws); undefined when taken. */
async function unusedMid(db: PrismaClient, asked: string | undefined): Promise<string | undefined> {
  if (asked !== undefined) return (await findMerchantByMid(db, asked)) ? undefined : asked;
  for (let draw = 0; draw < 5; draw++) {
    const mid = `M${randomInt(10 ** 11, 10 ** 12)}`;
    if (!(await findMerchantByMid(db, mid))) return mid;
  }
  return undefined;
}
