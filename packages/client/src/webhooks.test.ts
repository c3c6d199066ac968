import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from './webhooks.js';

// The signing side written here independently with node:crypto, as docs/webhooks.md describes it; the
// real worker's deliveries are verified in test/client/payout-client-stack.test.ts.

const SECRET = 'whsec_test_0123456789abcdef';
const NOW_MS = 1_763_760_000_000;
const T = NOW_MS / 1000;

const sign = (body: string, secret = SECRET, t = T) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

const UPI_SUCCESS =
  '{"error":false,"status_code":200,"status":"SUCCESS","account":"asha.kumar@okhdfc","Amount":101.00,' +
  '"Bankriff":"417712345678","Ack_no":"01KAKX3T5QH4Z8M2N6PR","TransactionID":12345678901234567890123,' +
  '"message":"MP00 - Transaction successful"}';

// The members of a paid payout's result once the beneficiary's bank has reversed it.
const REVERSED_RESULT =
  '"error":true,"status_code":400,"status":"FAILED","account":"123456789012","ifsc":"HDFC0001234",' +
  '"Amount":"250.00","Bankriff":"417712345678","Ack_no":"01KAKX3T5QH4Z8M2N6PR","TransactionID":"20240601000123",' +
  '"message":"MP007 - Transaction failed: reversed by beneficiary bank"';

const delivery = (body: string, signature: string, extra: Record<string, string> = {}) => ({
  rawBody: body,
  headers: {
    'content-type': 'application/json',
    'x-webhook-id': '4711',
    'x-webhook-attempt': '2',
    'x-webhook-signature': signature,
    ...extra,
  },
  secret: SECRET,
  now: NOW_MS,
});

describe('verifyWebhook', () => {
  it('when the signature and timestamp are right, then the typed event with exact identifiers and delivery headers', async () => {
    const result = await verifyWebhook(delivery(UPI_SUCCESS, `t=${T},v1=${sign(UPI_SUCCESS)}`));
    expect(result).toMatchObject({
      ok: true,
      event: {
        type: 'payout.success',
        deliveryId: '4711',
        attempt: 2,
        sequence: undefined,
        signedAt: T,
        reason: undefined,
        payout: { status: 'SUCCESS', TransactionID: '12345678901234567890123', Amount: '101.00' },
      },
    });
  });

  it('when the body arrives as bytes and the headers as a fetch Headers, then it verifies the same', async () => {
    const headers = new Headers({ 'X-Webhook-Signature': `t=${T},v1=${sign(UPI_SUCCESS)}`, 'X-Webhook-Id': '9' });
    const result = await verifyWebhook({
      rawBody: new TextEncoder().encode(UPI_SUCCESS),
      headers,
      secret: SECRET,
      now: NOW_MS,
    });
    expect(result).toMatchObject({ ok: true, event: { deliveryId: '9' } });
  });

  it('when the secret was just rotated (two v1), then either secret of the merchant verifies it', async () => {
    const header = `t=${T},v1=${sign(UPI_SUCCESS, 'whsec_new')},v1=${sign(UPI_SUCCESS, 'whsec_old')}`;
    expect((await verifyWebhook({ ...delivery(UPI_SUCCESS, header), secret: 'whsec_old' })).ok).toBe(true);
    expect((await verifyWebhook({ ...delivery(UPI_SUCCESS, header), secret: ['whsec_other', 'whsec_new'] })).ok).toBe(
      true,
    );
  });

  it.each([
    [
      'a tampered body',
      UPI_SUCCESS.replace('101.00', '901.00'),
      `t=${T},v1=${sign(UPI_SUCCESS)}`,
      'signature_mismatch',
    ],
    ['a wrong secret', UPI_SUCCESS, `t=${T},v1=${sign(UPI_SUCCESS, 'whsec_wrong')}`, 'signature_mismatch'],
    ['a changed timestamp', UPI_SUCCESS, `t=${T + 1},v1=${sign(UPI_SUCCESS)}`, 'signature_mismatch'],
    [
      'an old timestamp',
      UPI_SUCCESS,
      `t=${T - 301},v1=${sign(UPI_SUCCESS, SECRET, T - 301)}`,
      'timestamp_outside_window',
    ],
    [
      'a future timestamp',
      UPI_SUCCESS,
      `t=${T + 301},v1=${sign(UPI_SUCCESS, SECRET, T + 301)}`,
      'timestamp_outside_window',
    ],
    ['no signature header', UPI_SUCCESS, '', 'missing_signature'],
    ['no v1', UPI_SUCCESS, `t=${T}`, 'malformed_signature'],
    ['no t', UPI_SUCCESS, `v1=${sign(UPI_SUCCESS)}`, 'malformed_signature'],
    ['a v1 that is not hex', UPI_SUCCESS, `t=${T},v1=zz${sign(UPI_SUCCESS).slice(2)}`, 'malformed_signature'],
    ['a truncated v1', UPI_SUCCESS, `t=${T},v1=${sign(UPI_SUCCESS).slice(0, 32)}`, 'signature_mismatch'],
    ['a signed body that is not an object', '[1,2]', `t=${T},v1=${sign('[1,2]')}`, 'malformed_body'],
  ])('when the delivery has %s, then it is refused with a reason', async (_what, body, header, reason) => {
    const result = await verifyWebhook(delivery(body, header));
    expect(result).toMatchObject({ ok: false, reason });
    expect(result.ok ? '' : result.message).toMatch(/^.{20,}$/);
  });

  it('when the body was already parsed by a framework, then a TypeError saying to pass the raw body', async () => {
    const parsed = JSON.parse(UPI_SUCCESS) as unknown;
    await expect(
      verifyWebhook({ ...delivery(UPI_SUCCESS, `t=${T},v1=${sign(UPI_SUCCESS)}`), rawBody: parsed as string }),
    ).rejects.toThrow(/express\.raw/);
  });

  it('when the payout was reversed after success, then the event is payout.reversed with its reason and sequence', async () => {
    const body = `{${REVERSED_RESULT}}`;
    const result = await verifyWebhook(delivery(body, `t=${T},v1=${sign(body)}`, { 'x-webhook-sequence': '3' }));
    expect(result).toMatchObject({
      ok: true,
      event: { type: 'payout.reversed', reason: 'reversed by beneficiary bank', sequence: 3 },
    });
  });

  it('when the body carries its sequence and the header another, then the signed body wins', async () => {
    const body = `{${REVERSED_RESULT},"event":"payout.reversed","sequence":2}`;
    const result = await verifyWebhook(delivery(body, `t=${T},v1=${sign(body)}`, { 'x-webhook-sequence': '9' }));
    expect(result).toMatchObject({ ok: true, event: { type: 'payout.reversed', sequence: 2 } });
  });

  it('when the event is of a type this client does not know, then it is handed over with its body, not refused', async () => {
    const body = '{"event":"payout.queued","sequence":7,"TransactionID":98765432109876543210987,"note":"new"}';
    const result = await verifyWebhook(delivery(body, `t=${T},v1=${sign(body)}`));
    expect(result).toMatchObject({
      ok: true,
      event: {
        type: 'payout.queued',
        sequence: 7,
        payout: undefined,
        body: { event: 'payout.queued', TransactionID: '98765432109876543210987', note: 'new' },
      },
    });
  });
});
