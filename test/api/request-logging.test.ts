import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { REDACTED_PATHS } from '@payout/telemetry';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, upiBody } from '../support/api.js';

const prisma = testPrisma();
const lines: Record<string, unknown>[] = [];
const raw: string[] = [];
let api: RunningApi;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  // The API's own logger configuration, writing to memory instead of stdout.
  const logger = pino(
    { level: 'info', base: { app: 'api' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    sink,
  );
  api = await startApi(loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1' }), logger);
});
afterAll(async () => {
  await api.close();
  await prisma.$disconnect();
});

describe('request ids and logs', () => {
  it('when requests are served, then each answer carries an X-Request-Id and every log line of it carries the same id', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const answers = [
      await call(api, '/api/impspayout', { merchant, body: impsBody({ Account: '998877665544', Amount: '1.00' }) }),
      await call(api, '/api/payout', { merchant, body: upiBody({ Upi: 'asha.kumar@okhdfc', Amount: '1.00' }) }),
      await call(api, '/api/checkMainWallet?PayoutType=nope', { merchant }),
      await call(api, '/nowhere'),
    ];
    for (const answer of answers) {
      const id = answer.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const ofRequest = lines.filter((l) => (l.req as { id?: string } | undefined)?.id === id);
      expect(ofRequest.length).toBeGreaterThan(0);
    }
    const accepted = lines.find((l) => l.msg === 'payout accepted');
    expect(accepted?.req).toMatchObject({ id: answers[0]!.headers.get('x-request-id') });
  });

  it('when a caller sends its own X-Request-Id, then it is used', async () => {
    const answer = await call(api, '/nowhere', { headers: { 'X-Request-Id': 'trace-abc-123' } });
    expect(answer.headers.get('x-request-id')).toBe('trace-abc-123');
    expect(lines.some((l) => (l.req as { id?: string } | undefined)?.id === 'trace-abc-123')).toBe(true);
  });

  it('when a caller sends a token-shaped or malformed X-Request-Id, then it is replaced, never echoed or logged', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1.00' });
    const refused = [
      merchant.token, // pgt_…: a merchant pasting its token in the wrong header
      'whsec_AbCdEf0123456789abcdef0123456789',
      'a3f1c9e07b2d4f6a8c0e1d3b5f7a9c2e4d6f8a0b1c3e5d7f9a2b4c6d8e0f1a3b', // openssl rand -hex 32
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', // a JWT
      'id with spaces',
      'x'.repeat(65),
      '-starts-with-a-dash',
    ];
    for (const incoming of refused) {
      const answer = await call(api, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', {
        merchant,
        headers: { 'X-Request-Id': incoming },
      });
      expect(answer.headers.get('x-request-id')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      expect(raw.join('')).not.toContain(incoming);
    }
    for (const kept of ['9b2c6a1e-3f4d-4e5a-8b7c-0d1e2f3a4b5c', '00f067aa0ba902b7', 'req.42:retry-1']) {
      expect((await call(api, '/nowhere', { headers: { 'X-Request-Id': kept } })).headers.get('x-request-id')).toBe(
        kept,
      );
    }
  });

  it('when payouts are logged, then the token never appears and account numbers appear only masked', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    await call(api, '/api/impspayout', { merchant, body: impsBody({ Account: '112233445566', Amount: '1.00' }) });
    await call(api, '/api/payout', { merchant, body: upiBody({ Upi: 'secret.person@okaxis', Amount: '1.00' }) });
    await call(api, '/api/impspayout', { merchant: { mid: merchant.mid, token: 'wrong' }, body: impsBody() });
    const all = raw.join('');
    expect(all).not.toContain(merchant.token);
    expect(all).not.toContain('112233445566');
    expect(all).toContain('XXXXXXXX5566');
    expect(all).not.toContain('secret.person@okaxis');
    expect(all).toContain('se***@okaxis');
  });
});
