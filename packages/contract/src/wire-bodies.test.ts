import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AppError,
  FAILURE_REASON_TEXT,
  newApiToken,
  stringifyJson,
  type FailureReason,
  type PayoutMode,
  type PayoutResultSource,
  type PayoutStatus,
} from '@payout/domain';
import {
  accountVerdictBody,
  accountVerdictSchema,
  upiVerdictBody,
  upiVerdictSchema,
} from './beneficiary-validation.js';
import { bulkAcceptedBody, bulkAcceptedSchema, bulkStatusBody, bulkStatusSchema } from './bulk.js';
import {
  conflictSchema,
  errorBody,
  errorBodySchema,
  tokenLimitMessage,
  tokenLimitSchema,
  validationErrorSchema,
} from './errors.js';
import {
  collectionStatusBody,
  collectionStatusSchema,
  mainWalletBody,
  mainWalletSchema,
  payoutStatusBody,
  payoutStatusSchema,
} from './lookups.js';
import { PAYOUT_RESULT_SCHEMAS, payoutResult } from './payout-result.js';
import {
  downtimeWebhookPayload,
  downtimeWebhookPayloadSchema,
  webhookPayload,
  webhookPayloadSchema,
} from './webhook-payload.js';
import { downtimesBody, downtimesSchema } from './downtimes.js';
import { tokenRevokedBody, tokenRevokedSchema, tokenRotatedBody, tokenRotatedSchema } from './tokens.js';

// The builders are typed by their schemas (a missing or renamed member is a compile error); these tests
// hold the finer rules (literals, patterns, which variant a status gets) to the schemas the OpenAPI
// document publishes. A body is compared as a merchant reads it: written with stringifyJson, then parsed.
// The response path itself never parses with zod.

const asSent = (body: unknown): unknown => JSON.parse(stringifyJson(body));

function expectBodyFits(schema: z.ZodType, body: unknown): void {
  const result = schema.safeParse(asSent(body));
  expect(result.success ? [] : result.error.issues).toEqual([]);
}

const payout = (
  mode: PayoutMode,
  status: PayoutStatus,
  more: Partial<PayoutResultSource> = {},
): PayoutResultSource => ({
  mode,
  status,
  transactionId: '20240601000123',
  amountPaise: 10150n,
  ackNo: '06F3K9Q2ZC4M7XR1B8TD',
  account: mode === 'IMPS' ? '123456789012' : 'asha.kumar@okhdfc',
  ifsc: mode === 'IMPS' ? 'HDFC0001234' : null,
  bankReference: status === 'SUCCESS' ? '412345678901' : null,
  failureReason: status === 'FAILED' ? 'RAIL_REJECTED' : null,
  ...more,
});

const MODES: PayoutMode[] = ['IMPS', 'UPI'];
const STATUSES: PayoutStatus[] = ['PENDING', 'SUCCESS', 'FAILED'];
const REASONS = Object.keys(FAILURE_REASON_TEXT) as FailureReason[];

// Every payout a result can be built from: each mode and status, a queued one, each failure reason
// (a reversal keeps its UTR), and a TransactionID with leading zeros.
const payouts = MODES.flatMap((mode) => [
  ...STATUSES.map((status) => payout(mode, status)),
  payout(mode, 'PENDING', { state: 'QUEUED' }),
  payout(mode, 'PENDING', { state: 'ACCEPTED', heldSince: new Date() }),
  payout(mode, 'PENDING', { transactionId: '000123' }),
  ...REASONS.map((failureReason) => payout(mode, 'FAILED', { failureReason, bankReference: '412345678901' })),
]);

describe('wire bodies against their schemas', () => {
  it('when a payout result is built, then it fits the documented variant of its mode and status', () => {
    for (const p of payouts) expectBodyFits(PAYOUT_RESULT_SCHEMAS[p.mode][p.status], payoutResult(p).body);
  });

  it('when a lookup or webhook body is built, then it fits its schema', () => {
    for (const p of payouts) {
      expectBodyFits(payoutStatusSchema, payoutStatusBody(p));
      expectBodyFits(webhookPayloadSchema, webhookPayload(p, 3));
    }
    const collection = {
      transactionId: '20240601000123',
      mode: 'INTENT' as const,
      payerAccount: '',
      amountPaise: 10000n,
      bankReference: '412345678901',
      ackNo: 'ACK1',
      status: 'SUCCESS' as const,
    };
    expectBodyFits(collectionStatusSchema, collectionStatusBody(collection));
    expectBodyFits(mainWalletSchema, mainWalletBody(476500n));
  });

  it('when an item is refused or a beneficiary is judged, then its body fits its schema', () => {
    const invalid = errorBody(AppError.validation([{ field: 'Ifsc', message: 'Ifsc is required' }]));
    const conflict = errorBody(
      new AppError('TRANSACTION_ID_CONFLICT', 'TransactionID 1 is already used', { details: { TransactionID: '1' } }),
    );
    expectBodyFits(validationErrorSchema, invalid);
    expectBodyFits(conflictSchema, conflict);
    for (const body of [invalid, conflict, errorBody(new AppError('INTERNAL', 'boom', { operational: false }))])
      expectBodyFits(errorBodySchema, body);
    const batch = {
      batchId: '20240601',
      items: [
        ...payouts.map((p, index) => ({ index, payout: p })),
        { index: payouts.length, refusal: invalid },
        { index: payouts.length + 1, refusal: conflict },
      ],
    };
    expectBodyFits(bulkAcceptedSchema, bulkAcceptedBody(batch));
    expectBodyFits(bulkStatusSchema, bulkStatusBody(batch));
    for (const status of ['VALID', 'INVALID'] as const) {
      const verdict = { status, registeredName: status === 'VALID' ? 'ASHA KUMAR' : '' };
      expectBodyFits(
        accountVerdictSchema,
        accountVerdictBody(verdict, { account: '123456789012', ifsc: 'HDFC0001234' }),
      );
      expectBodyFits(upiVerdictSchema, upiVerdictBody(verdict, { upi: 'asha.kumar@okhdfc' }));
    }
  });

  it("when a merchant's own token is rotated, refused at the limit or revoked, then each body fits its schema", () => {
    const token = newApiToken();
    expectBodyFits(tokenRotatedSchema, tokenRotatedBody(token, token.slice(0, 10)));
    expectBodyFits(tokenRevokedSchema, tokenRevokedBody(token.slice(0, 10)));
    const limit = errorBody(new AppError('CONFLICT', tokenLimitMessage([token.slice(0, 10), 'pgt_b7QmR2'])));
    expectBodyFits(tokenLimitSchema, limit);
  });

  it('when the downtimes are listed or a downtime webhook is built, then each body fits its schema', () => {
    const since = new Date('2026-11-28T09:15:00.000Z');
    const down = { bank: 'primary', mode: 'UPI' as const, status: 'DOWN' as const, since };
    expectBodyFits(downtimesSchema, downtimesBody([]));
    expectBodyFits(downtimesSchema, downtimesBody([down, { ...down, mode: 'IMPS', status: 'DEGRADED' }]));
    for (const resolved of [false, true])
      expectBodyFits(downtimeWebhookPayloadSchema, downtimeWebhookPayload(down, resolved, 7));
    expect(stringifyJson(downtimeWebhookPayload(down, true, 7))).toBe(
      '{"mode":"UPI","bank":"primary","since":"2026-11-28T09:15:00.000Z","status":"DOWN","event":"downtime.resolved","sequence":7}',
    );
  });

  it('when a payout held for a downtime, sent to a bank, or failed is looked up, then the body carries the additions of several banks only where the payout has them', () => {
    const held = payoutStatusBody(payout('UPI', 'PENDING', { state: 'ACCEPTED', heldSince: new Date() }));
    expect(held.message).toBe(
      'MP006 - Your transaction is held: the bank for this mode is down; it will be sent when it recovers',
    );
    expect(held).not.toHaveProperty('bank');
    expect(held).not.toHaveProperty('reason_code');
    // Held since, but sent meanwhile: in progress.
    const sent = payoutStatusBody({
      ...payout('UPI', 'PENDING', { state: 'SUBMITTING', heldSince: new Date() }),
      bank: 'secondary',
    });
    expect(sent).toMatchObject({ message: 'MP006 - Your transaction is in progress', bank: 'secondary' });
    expect(sent).not.toHaveProperty('retryable');
    const expired = payoutStatusBody(payout('IMPS', 'FAILED', { failureReason: 'BANK_DOWNTIME' }));
    expect(expired).toMatchObject({
      status: 'Failed',
      message: 'MP007 - Transaction failed: bank downtime; retrying is safe',
      reason_code: 'BANK_DOWNTIME',
      retryable: true,
    });
    const declined = payoutStatusBody({
      ...payout('IMPS', 'FAILED', { failureReason: 'DECLINED_BY_BENEFICIARY_BANK' }),
      bank: 'primary',
    });
    expect(declined).toMatchObject({ bank: 'primary', reason_code: 'DECLINED_BY_BENEFICIARY_BANK', retryable: false });
    const paid = payoutStatusBody({ ...payout('IMPS', 'SUCCESS'), bank: 'primary' });
    expect(paid.bank).toBe('primary');
    expect(paid).not.toHaveProperty('reason_code');
  });

  it('when a body drifts from its schema, then the check says so', () => {
    const body = { ...payoutResult(payout('UPI', 'PENDING')).body, Amount: '101.50' };
    expect(PAYOUT_RESULT_SCHEMAS.UPI.PENDING.safeParse(asSent(body)).success).toBe(false);
  });
});
