import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  isValidPayinSignature,
  newWebhookSecret,
  payinSignature,
  webhookSecretDisplayPrefix,
  webhookSignature,
} from './signatures.js';

const SECRET = 'a-provider-secret-of-some-length';
const body = Buffer.from('{"MID":"ACME01","TransactionID":123,"Amount":500.00}');

describe('pay-in callback signatures', () => {
  it('when signed, then the header is sha256= and the hex HMAC of the raw bytes', () => {
    const expected = createHmac('sha256', SECRET).update(body).digest('hex');
    expect(payinSignature(SECRET, body)).toBe(`sha256=${expected}`);
  });

  it('when the signature matches the bytes, then it is valid (upper-case hex too)', () => {
    const header = payinSignature(SECRET, body);
    expect(isValidPayinSignature(SECRET, body, header)).toBe(true);
    expect(isValidPayinSignature(SECRET, body, `sha256=${header.slice(7).toUpperCase()}`)).toBe(true);
  });

  it('when one byte of the body, the secret or the signature differs, then it is refused', () => {
    const header = payinSignature(SECRET, body);
    const tampered = Buffer.from(body);
    tampered[tampered.length - 2] = 0x31;
    expect(isValidPayinSignature(SECRET, tampered, header)).toBe(false);
    expect(isValidPayinSignature(`${SECRET}x`, body, header)).toBe(false);
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
    expect(isValidPayinSignature(SECRET, body, flipped)).toBe(false);
  });

  it('when the header is missing or malformed, then it is refused', () => {
    const hex = payinSignature(SECRET, body).slice(7);
    for (const header of [
      undefined,
      '',
      hex,
      `sha1=${hex}`,
      `sha256=${hex.slice(2)}`,
      `sha256=${hex}00`,
      'sha256=zz',
    ]) {
      expect(isValidPayinSignature(SECRET, body, header)).toBe(false);
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
