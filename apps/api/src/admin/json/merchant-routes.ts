import type { Queue } from 'bullmq';
import type { BankSettings } from '@payout/config';
import { z } from 'zod';
import { findMerchantByMid, type PrismaClient } from '@payout/db';
import { AppError, formatRupees, isJsonNumber, type WebhookDestinationPolicy } from '@payout/domain';
import { optional, text, validate } from '@payout/contract';
import {
  enableWebhookEndpointAction,
  merchantJson,
  planMerchantCreate,
  planTokenIssue,
  planWalletCredit,
  requestApproval,
  revokeToken,
  setMerchantStatusAction,
  setWebhookUrlAction,
  updateQueueSettingsAction,
  updateRoutingSettingsAction,
  DOWNTIME_HOLD_SECONDS,
  MERCHANT_TOKEN_DIGEST,
  MERCHANT_TOKEN_PREFIX,
  webhookEndpointJson,
  type ApprovalSettings,
} from '@payout/use-cases';
import { methodNotAllowed } from '../../http/error-handler.js';
import { exactRouter } from '../console/console-authorization.js';
import { jsonActions, midField, midOf, rupeeAmountField, sendOk, sendRequested, whyField } from './json-actions.js';

export interface MerchantJsonDeps {
  db: PrismaClient;
  approvals: ApprovalSettings;
  webhookQueue: Queue;
  /** Where a merchant's webhook may point (docs/webhooks.md, "Where a webhook may point"). */
  webhookDestinations: WebhookDestinationPolicy;
  /** The configured banks (`BANKS`): a merchant may be pinned to one of these only. */
  banks: readonly BankSettings[];
}

/**
 * A token the merchant made itself, as its `payout-token` printed it: the digest and the prefix, never the
 * token (docs/operations.md, "A merchant's token and webhook secret").
 */
const merchantMadeToken = {
  tokenDigest: z
    .string({ error: 'tokenDigest is required: the SHA-256 the merchant’s payout-token printed' })
    .regex(MERCHANT_TOKEN_DIGEST, { error: 'tokenDigest must be 64 hex digits (the token’s SHA-256)' }),
  tokenPrefix: z
    .string({ error: 'tokenPrefix is required: the prefix the merchant’s payout-token printed' })
    .regex(MERCHANT_TOKEN_PREFIX, { error: 'tokenPrefix must be pgt_ and six more characters' }),
};
const createBody = z.strictObject({
  name: text('name', 1, 200),
  mid: optional(midField),
  impsLimit: optional(rupeeAmountField),
  upiLimit: optional(rupeeAmountField),
  ...merchantMadeToken,
  /** The owner of the merchant's dashboard (docs/dashboard.md, "Enrollment"). */
  ownerEmail: optional(text('ownerEmail', 3, 254)),
  why: optional(whyField),
});
const tokenIssueBody = z.strictObject({ why: whyField, ...merchantMadeToken });
const whyBody = z.strictObject({ why: whyField });
const queueSettingsBody = z
  .strictObject({
    queueIfLowBalance: z.boolean().optional(),
    /** How long a queued payout waits before it fails: a minute to 30 days. */
    queueWindowSeconds: z
      .preprocess(
        (value) => (isJsonNumber(value) ? Number(value.toString()) : value),
        z
          .number({ error: 'queueWindowSeconds must be a whole number of seconds' })
          .int()
          .min(60)
          .max(30 * 86_400),
      )
      .optional(),
    why: optional(whyField),
  })
  .refine((b) => b.queueIfLowBalance !== undefined || b.queueWindowSeconds !== undefined, {
    error: 'nothing to change: give queueIfLowBalance and/or queueWindowSeconds',
  });
const optionalWhyBody = z.strictObject({ why: optional(whyField) });
const routingBody = z
  .strictObject({
    /** A bank's alias, or null to route by health again. */
    pinnedBank: z.string({ error: 'pinnedBank must be a bank alias or null' }).min(1).max(32).nullable().optional(),
    /** How long a payout is held through a downtime before it fails: a second to a day. */
    downtimeHoldSeconds: z
      .preprocess(
        (value) => (isJsonNumber(value) ? Number(value.toString()) : value),
        z
          .number({ error: 'downtimeHoldSeconds must be a whole number of seconds' })
          .int()
          .min(DOWNTIME_HOLD_SECONDS.min)
          .max(DOWNTIME_HOLD_SECONDS.max),
      )
      .optional(),
    why: optional(whyField),
  })
  .refine((b) => b.pinnedBank !== undefined || b.downtimeHoldSeconds !== undefined, {
    error: 'nothing to change: give pinnedBank and/or downtimeHoldSeconds',
  });
const webhookBody = z.strictObject({
  url: z.url({ error: 'url must be an absolute http:// or https:// URL' }).max(2048),
});
const creditBody = z.strictObject({ amount: rupeeAmountField, reference: text('reference', 1, 100), why: whyField });
/** A token is named by its id or by the prefix `token list` and the console show. */
const TOKEN = /^(?:[1-9][0-9]{0,8}|[A-Za-z0-9_-]{4,12})$/;

/**
 * A person's merchant actions on the admin JSON API (docs/operations.md, "Security model"), each calling the
 * use case the console and the CLI share: suspending and activating a merchant, its webhook URL, revoking a
 * token (`act`), and the actions that wait for a second person — a new merchant, a wallet credit and a
 * merchant-made token for a merchant that lost its own (`request`, answered 202 with the request). No answer
 * carries a merchant's token or webhook signing secret: staff never hold either.
 */
export function merchantJsonRoutes(deps: MerchantJsonDeps) {
  const router = exactRouter();
  const action = jsonActions(deps.db);

  router
    .route('/admin/merchants')
    .post(
      action('request', async ({ res, person, body }) => {
        const input = validate(createBody, body);
        const plan = await planMerchantCreate(deps, {
          name: input.name,
          ...(input.mid !== undefined && { mid: input.mid }),
          ...(input.impsLimit !== undefined && { impsLimitPaise: input.impsLimit }),
          ...(input.upiLimit !== undefined && { upiLimitPaise: input.upiLimit }),
          token: { digest: input.tokenDigest, prefix: input.tokenPrefix },
          ...(input.ownerEmail !== undefined && { ownerEmail: input.ownerEmail }),
        });
        switch (plan.kind) {
          case 'mid-taken':
            throw new AppError('CONFLICT', `MID ${plan.mid} is already taken; nothing changed.`);
          case 'limit-too-high':
            throw AppError.validation([{ field: plan.field, message: `${plan.field} may not exceed ${plan.ceiling}` }]);
          case 'invalid-token':
            throw AppError.validation(plan.problems.map((message) => ({ field: 'token', message })));
          case 'token-taken':
            throw tokenTaken();
          case 'bad-owner-email':
            throw AppError.validation([{ field: 'ownerEmail', message: plan.problem }]);
          case 'planned':
            sendRequested(
              res,
              await requestApproval(deps, {
                planned: plan.planned,
                maker: person,
                reason: input.why ?? `new merchant ${input.name}`,
              }),
            );
        }
      }),
    )
    .all(methodNotAllowed);

  for (const [name, status] of [
    ['suspend', 'SUSPENDED'],
    ['activate', 'ACTIVE'],
  ] as const) {
    router
      .route(`/admin/merchants/:mid/${name}`)
      .post(
        action('act', async ({ req, res, actor, body }) => {
          const mid = midOf(req);
          const { why } = validate(whyBody, body);
          const changed = await setMerchantStatusAction(deps, { mid, status, actor, reason: why });
          if (changed.kind === 'no-merchant') throw noMerchant(mid);
          sendOk(res, { merchant: merchantJson(changed.merchant) });
        }),
      )
      .all(methodNotAllowed);
  }

  router
    .route('/admin/merchants/:mid/queue-settings')
    .post(
      action('act', async ({ req, res, actor, body }) => {
        const mid = midOf(req);
        const { queueIfLowBalance, queueWindowSeconds, why } = validate(queueSettingsBody, body);
        const changed = await updateQueueSettingsAction(deps, {
          mid,
          settings: {
            ...(queueIfLowBalance !== undefined && { queueIfLowBalance }),
            ...(queueWindowSeconds !== undefined && { queueWindowSeconds }),
          },
          actor,
          reason: why ?? 'queue settings changed',
        });
        if (changed.kind === 'no-merchant') throw noMerchant(mid);
        sendOk(res, { merchant: merchantJson(changed.merchant) });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/merchants/:mid/routing')
    .post(
      action('act', async ({ req, res, actor, body }) => {
        const mid = midOf(req);
        const { pinnedBank, downtimeHoldSeconds, why } = validate(routingBody, body);
        const changed = await updateRoutingSettingsAction(deps, {
          mid,
          settings: {
            ...(pinnedBank !== undefined && { pinnedBank }),
            ...(downtimeHoldSeconds !== undefined && { downtimeHoldSeconds }),
          },
          actor,
          reason: why ?? 'routing settings changed',
        });
        switch (changed.kind) {
          case 'no-merchant':
            throw noMerchant(mid);
          case 'unknown-bank':
            throw AppError.validation([
              {
                field: 'pinnedBank',
                message: `pinnedBank must be a configured bank (${changed.known.join(', ')}), not ${changed.bank}`,
              },
            ]);
          case 'changed':
            sendOk(res, { merchant: merchantJson(changed.merchant) });
        }
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/merchants/:mid/webhook')
    .post(
      action('act', async ({ req, res, actor, body }) => {
        const mid = midOf(req);
        const { url } = validate(webhookBody, body);
        const registered = await setWebhookUrlAction(
          { db: deps.db, destinations: deps.webhookDestinations },
          { mid, url, actor, reason: 'webhook URL registered' },
        );
        switch (registered.kind) {
          case 'refused-url':
            throw AppError.validation([{ field: 'url', message: `url ${registered.why}` }]);
          case 'no-merchant':
            throw noMerchant(mid);
          case 'registered':
            // Never the signing secret: the merchant fetches it itself (POST /api/webhook/secret).
            sendOk(res, {
              webhook: {
                ...webhookEndpointJson(mid, registered.endpoint),
                awaitingSecret: registered.awaitingSecret,
              },
            });
        }
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/merchants/:mid/webhook/enable')
    .post(
      action('act', async ({ req, res, actor, body }) => {
        const mid = midOf(req);
        const { why } = validate(optionalWhyBody, body);
        const merchant = await findMerchantByMid(deps.db, mid);
        if (!merchant) throw noMerchant(mid);
        const enabled = await enableWebhookEndpointAction(deps, {
          merchantId: merchant.id,
          actor,
          reason: why ?? 'webhook endpoint enabled',
        });
        switch (enabled.kind) {
          case 'no-endpoint':
            throw new AppError('NOT_FOUND', `MID ${mid} has no webhook URL: register one first.`);
          case 'not-disabled':
            throw new AppError('CONFLICT', `The webhook endpoint of MID ${mid} is not disabled; nothing changed.`);
          case 'awaiting-secret':
            throw awaitingSecret(mid);
          case 'enabled':
            sendOk(res, {
              webhook: {
                mid,
                disabledAt: enabled.disabledAt.toISOString(),
                disabledReason: enabled.disabledReason,
                resumed: enabled.resumed,
                queued: enabled.queued,
              },
            });
        }
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/merchants/:mid/credits')
    .post(
      action('request', async ({ req, res, person, body }) => {
        const mid = midOf(req);
        const { amount, reference, why } = validate(creditBody, body);
        const plan = await planWalletCredit(deps, { mid, amountPaise: amount, reference });
        switch (plan.kind) {
          case 'no-merchant':
            throw noMerchant(mid);
          case 'reference-conflict':
            throw new AppError(
              'CONFLICT',
              `Reference ${reference} was already used for a credit of ${formatRupees(plan.creditedPaise)}; nothing changed.`,
            );
          case 'already-credited':
            sendOk(res, {
              credit: {
                mid,
                reference,
                amount: formatRupees(amount),
                credited: false,
                available: formatRupees(plan.availablePaise),
              },
            });
            return;
          case 'planned':
            sendRequested(res, await requestApproval(deps, { planned: plan.planned, maker: person, reason: why }));
        }
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/merchants/:mid/tokens')
    .post(
      action('request', async ({ req, res, person, body }) => {
        const mid = midOf(req);
        const { why, tokenDigest, tokenPrefix } = validate(tokenIssueBody, body);
        const plan = await planTokenIssue(deps, { mid, token: { digest: tokenDigest, prefix: tokenPrefix } });
        switch (plan.kind) {
          case 'no-merchant':
            throw noMerchant(mid);
          case 'invalid-token':
            throw AppError.validation(plan.problems.map((message) => ({ field: 'token', message })));
          case 'token-taken':
            throw tokenTaken();
          case 'planned':
            sendRequested(res, await requestApproval(deps, { planned: plan.planned, maker: person, reason: why }));
        }
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/admin/merchants/:mid/tokens/:token/revoke')
    .post(
      action('act', async ({ req, res, actor, body }) => {
        const mid = midOf(req);
        const named = String(req.params.token);
        if (!TOKEN.test(named))
          throw AppError.validation([{ field: 'token', message: 'token must be an id or a prefix' }]);
        const { why } = validate(whyBody, body);
        const token = /^[0-9]+$/.test(named) ? { tokenId: Number(named) } : { tokenPrefix: named };
        const revoked = await revokeToken(deps, { mid, ...token, actor, reason: why });
        if (revoked.kind === 'no-merchant') throw noMerchant(mid);
        if (revoked.kind === 'no-token') throw new AppError('NOT_FOUND', `MID ${mid} has no active token ${named}.`);
        sendOk(res, {
          token: {
            mid,
            id: revoked.row.id,
            prefix: revoked.row.tokenPrefix,
            createdAt: revoked.row.createdAt.toISOString(),
            revokedAt: revoked.row.revokedAt?.toISOString() ?? null,
          },
        });
      }),
    )
    .all(methodNotAllowed);

  return router;
}

function tokenTaken(): AppError {
  return new AppError(
    'CONFLICT',
    'That token digest is already registered; nothing changed. The merchant makes a new token (payout-token).',
  );
}

/** An endpoint waiting for the merchant's first signing secret: enabling it would send what nobody can verify. */
function awaitingSecret(mid: string): AppError {
  return new AppError(
    'CONFLICT',
    `The webhook endpoint of MID ${mid} waits for the merchant to fetch its signing secret ` +
      '(POST /api/webhook/secret); its deliveries resume then. Nothing changed.',
  );
}

function noMerchant(mid: string): AppError {
  return new AppError('NOT_FOUND', `No merchant with MID ${mid}.`, { details: { mid } });
}
