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

describe('log redaction', () => {
  it('when a request with a Token header is logged, then the token does not appear', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    logger.info({ req: { headers: { token: 'pgt_secret_value', mid: 'M1' } }, token: 'pgt_other' }, 'request');
    const output = lines.join('');
    expect(output).not.toContain('pgt_secret_value');
    expect(output).not.toContain('pgt_other');
    expect(output).toContain('M1');
  });
});
