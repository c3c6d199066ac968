import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { maskAccount, REDACTED_PATHS } from './logger.js';

describe('maskAccount', () => {
  it('when given a bank account, then only the last four digits remain', () => {
    expect(maskAccount('123456789012')).toBe('XXXXXXXX9012');
  });

  it('when given a UPI address, then only its first two characters and handle remain', () => {
    expect(maskAccount('asha.k@okhdfc')).toBe('as***@okhdfc');
  });

  it('when given something very short, then nothing of it remains', () => {
    expect(maskAccount('123')).toBe('***');
  });
});

/** A logger redacting as the apps' do, and what it has written so far. */
function redactingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
  return { logger, output: () => lines.join('') };
}

describe('log redaction', () => {
  it('when a request with a Token header is logged, then the token does not appear', () => {
    const { logger, output } = redactingLogger();
    logger.info({ req: { headers: { token: 'pgt_secret_value', mid: 'M1' } }, token: 'pgt_other' }, 'request');
    expect(output()).not.toContain('pgt_secret_value');
    expect(output()).not.toContain('pgt_other');
    expect(output()).toContain('M1');
  });

  it('when a console sign-in is logged whole, then neither the password, the session cookies nor the CSRF tokens appear', () => {
    const { logger, output } = redactingLogger();
    logger.info(
      {
        req: {
          headers: {
            cookie: '__Host-console_session=session-id-in-cookie',
            'x-csrf-token': 'csrf-in-header',
            host: 'console.example',
          },
        },
        viewer: { csrfToken: 'csrf-of-session' },
        res: { headers: { 'set-cookie': ['console_session=session-id-set; HttpOnly'] } },
        body: { username: 'asha', password: 'typed-password' },
        password: 'top-level-password',
        user: { username: 'asha', passwordHash: 'scrypt$stored-hash' },
      },
      'sign-in',
    );
    for (const secret of [
      'session-id-in-cookie',
      'session-id-set',
      'csrf-in-header',
      'csrf-of-session',
      'typed-password',
      'top-level-password',
    ]) {
      expect(output()).not.toContain(secret);
    }
    expect(output()).not.toContain('stored-hash');
    expect(output()).toContain('console.example');
    expect(output()).toContain('asha');
  });

  it('when a webhook endpoint or a signed request is logged whole, then no secret or signature appears', () => {
    const { logger, output } = redactingLogger();
    logger.info(
      {
        endpoint: {
          url: 'https://merchant.example/hooks',
          signingSecret: 'whsec_current',
          previousSecret: 'whsec_old',
        },
        signingSecret: 'whsec_top',
        req: { headers: { 'x-payin-signature': 't=1,v1=payin-signature-value' } },
        headers: { 'X-Webhook-Signature': 't=1,v1=webhook-signature-value', 'X-Webhook-Id': 'wh_42' },
        deps: { adminToken: 'admin-token-value' },
      },
      'delivery',
    );
    for (const secret of [
      'whsec_current',
      'whsec_old',
      'whsec_top',
      'payin-signature-value',
      'webhook-signature-value',
      'admin-token-value',
    ]) {
      expect(output()).not.toContain(secret);
    }
    expect(output()).toContain('https://merchant.example/hooks');
    expect(output()).toContain('wh_42');
  });
});
