import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
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

describe('the apps’ logger on stdout', () => {
  it('when a process logs a burst and exits at once, then every line reaches stdout', async () => {
    // The destination is asynchronous (logger.ts): the lines still in its buffer when process.exit is
    // called must be written before the process ends.
    const lines = 20_000;
    const logger = new URL('./logger.ts', import.meta.url).href;
    const script = [
      `const { createLogger } = await import(${JSON.stringify(logger)});`,
      `const log = createLogger('test', 'info');`,
      `for (let i = 0; i < ${lines}; i++) log.info({ i }, 'request completed');`,
      `process.exit(0);`,
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    const written = Buffer.concat(chunks).toString().trimEnd().split('\n');
    expect(written).toHaveLength(lines);
    expect(JSON.parse(written.at(-1)!)).toMatchObject({ app: 'test', i: lines - 1, msg: 'request completed' });
  });
});
