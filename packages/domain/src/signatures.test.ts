import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkPayinSignature,
  newWebhookSecret,
  payinSignature,
  webhookSecretDisplayPrefix,
  webhookSignature,
} from './signatures.js';

const SECRET = 'a-provider-secret-of-some-length';
const body = Buffer.from('{"MID":"ACME01","TransactionID":123,"Amount":500.00}');

describe('pay-in callback signatures', () => {
  const T = 1_700_000_000;

  it('when signed, then the header carries t and the hex HMAC of "<t>.<raw bytes>"', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.`).update(body).digest('hex');
    expect(payinSignature(SECRET, T, body)).toBe(`t=${T},v1=${expected}`);
  });

  it('when the signature matches the bytes and the time is within 5 minutes either way, then it is valid (upper-case hex too)', () => {
    const header = payinSignature(SECRET, T, body);
    expect(checkPayinSignature(SECRET, body, header, T)).toBe('valid');
    expect(checkPayinSignature(SECRET, body, header, T + 300)).toBe('valid');
    expect(checkPayinSignature(SECRET, body, header, T - 300)).toBe('valid');
    const upper = header.replace(/v1=(.*)$/, (_m, hex: string) => `v1=${hex.toUpperCase()}`);
    expect(checkPayinSignature(SECRET, body, upper, T)).toBe('valid');
  });

  it('when a genuine callback is replayed more than 5 minutes later (or dated ahead), then it is outside the window', () => {
    const header = payinSignature(SECRET, T, body);
    expect(checkPayinSignature(SECRET, body, header, T + 301)).toBe('outside-window');
    expect(checkPayinSignature(SECRET, body, header, T - 301)).toBe('outside-window');
  });

  it('when the timestamp is changed to bring a replay into the window, then the signature no longer matches', () => {
    const header = payinSignature(SECRET, T, body);
    expect(checkPayinSignature(SECRET, body, header.replace(`t=${T}`, `t=${T + 600}`), T + 600)).toBe('invalid');
  });

  it('when one byte of the body, the secret or the signature differs, then it is refused', () => {
    const header = payinSignature(SECRET, T, body);
    const tampered = Buffer.from(body);
    tampered[tampered.length - 2] = 0x31;
    expect(checkPayinSignature(SECRET, tampered, header, T)).toBe('invalid');
    expect(checkPayinSignature(`${SECRET}x`, body, header, T)).toBe('invalid');
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    expect(checkPayinSignature(SECRET, body, flipped, T)).toBe('invalid');
  });

  it('when the header is missing or malformed, then it is refused', () => {
    const hex = payinSignature(SECRET, T, body).split('v1=')[1]!;
    for (const header of [
      undefined,
      '',
      hex,
      `sha256=${hex}`,
      `v1=${hex}`,
      `t=${T}`,
      `t=${T},v1=${hex.slice(2)}`,
      `t=${T},v1=${hex}00`,
      `t=abc,v1=${hex}`,
      `t=${T},v1=zz`,
    ]) {
      expect(checkPayinSignature(SECRET, body, header, T)).toBe('invalid');
    }
  });
});

describe('webhook signatures', () => {
  it('when signed with one secret, then the header carries t and the HMAC of "<t>.<body>"', () => {
    const text = '{"status":"SUCCESS"}';
    const expected = createHmac('sha256', 'whsec_one').update(`1700000000.${text}`).digest('hex');
    expect(webhookSignature(['whsec_one'], 1700000000, text)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('when signed with a current and a previous secret, then there is one v1 per secret, current first', () => {
    const header = webhookSignature(['whsec_new', 'whsec_old'], 1700000000, '{}');
    const parts = header.split(',');
    expect(parts).toHaveLength(3);
    expect(parts[1]).toBe(webhookSignature(['whsec_new'], 1700000000, '{}').split(',')[1]);
    expect(parts[2]).toBe(webhookSignature(['whsec_old'], 1700000000, '{}').split(',')[1]);
  });

  it('when a secret is generated, then it is random, prefixed, and shown to operators only by its start', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
    expect(webhookSecretDisplayPrefix(a)).toBe(a.slice(0, 12));
  });
});
