import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOf, call, impsBody, upiBody, useApi, type ApiResponse } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { sendBytes } from '../api/contract-expectations.js';

// Security headers on every kind of answer the API gives — successes, each error status, routes that do
// not exist, HEAD and OPTIONS, the operator surfaces — since an error page is as much a page as any other.

const api = useApi({ RATE_LIMIT_ENABLED: 'false' });
const prisma = testPrisma();
afterAll(() => prisma.$disconnect());

let merchant: TestMerchant;
let poor: TestMerchant;
beforeAll(async () => {
  merchant = await makeMerchant(prisma, { balance: '1000.00' });
  poor = await makeMerchant(prisma, { balance: '1.00' });
});

/** One request per kind of answer, named by what it should provoke. */
async function everyKindOfAnswer(): Promise<[string, ApiResponse][]> {
  const a = api.current;
  const m = merchant;
  const used = impsBody();
  await call(a, '/api/impspayout', { merchant: m, body: used });
  const json = (body: string, headers: Record<string, string> = {}) =>
    sendBytes(a.url, '/api/payout', {
      headers: { MID: m.mid, Token: m.token, 'Content-Type': 'application/json', ...headers },
      body: new TextEncoder().encode(body),
    });
  return [
    ['200 wallet', await call(a, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant: m })],
    ['202 IMPS payout', await call(a, '/api/impspayout', { merchant: m, body: impsBody() })],
    ['202 UPI payout', await call(a, '/api/payout', { merchant: m, body: upiBody() })],
    [
      '200 replayed payout lookup',
      await call(a, `/api/check_payout_status?TransactionID=${used.TransactionID}`, { merchant: m }),
    ],
    ['400 FAILED payout', await call(a, '/api/payout', { merchant: poor, body: upiBody({ Amount: '50.00' }) })],
    ['400 bad payout type', await call(a, '/api/checkMainWallet?PayoutType=x', { merchant: m })],
    ['400 invalid MID', await call(a, '/api/checkMainWallet', { headers: { MID: 'bad mid!', Token: 'x' } })],
    ['400 not JSON', await json('{"Amount":')],
    ['401 no credentials', await call(a, '/api/payin/status?TransactionID=1')],
    ['401 wrong token', await call(a, '/api/checkMainWallet', { merchant: { mid: m.mid, token: 'pgt_wrong' } })],
    ['404 lookup', await call(a, '/api/check_payout_status?TransactionID=404404', { merchant: m })],
    ['404 route', await call(a, '/nowhere')],
    ['405 method', await call(a, '/api/payout', { method: 'GET', merchant: m })],
    ['405 OPTIONS', await call(a, '/api/payout', { method: 'OPTIONS', merchant: m })],
    ['409 conflict', await call(a, '/api/impspayout', { merchant: m, body: { ...used, Amount: '102.00' } })],
    ['413 too large', await json(JSON.stringify(upiBody({ Description: 'd'.repeat(17_000) })))],
    [
      '415 media type',
      await call(a, '/api/payout', { merchant: m, body: upiBody(), headers: { 'Content-Type': 'text/plain' } }),
    ],
    ['422 validation', await call(a, '/api/payout', { merchant: m, body: upiBody({ Amount: '-1' }) })],
    [
      'HEAD lookup',
      await call(a, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { method: 'HEAD', merchant: m }),
    ],
    ['a body claiming gzip', await json(JSON.stringify(upiBody()), { 'Content-Encoding': 'gzip' })],
    ['admin without credentials', await call(adminOf(a), '/admin/payouts')],
    ['admin path on the merchant port', await call(a, '/admin/payouts')],
    ['console sign-in page', await call(adminOf(a), '/console/login')],
    ['console page signed out', await call(adminOf(a), '/console')],
    ['metrics', await call({ url: a.metricsUrl }, '/metrics')],
    ['callback without signature', await call(a, '/api/callbacks/payin', { body: {} })],
    ['health', await call(a, '/healthz')],
    ['readiness', await call(a, '/readyz')],
    ['OpenAPI document', await call(a, '/openapi.json')],
  ];
}

describe('security headers', () => {
  it('when the API answers anything at all, then the answer carries the security headers and gives nothing away about the server', async () => {
    const answers = await everyKindOfAnswer();
    const missing = answers.flatMap(([name, res]) => {
      const h = res.headers;
      const problems = [
        h.get('x-content-type-options') !== 'nosniff' && 'X-Content-Type-Options: nosniff',
        h.has('x-powered-by') && 'X-Powered-By present',
        h.has('server') && `Server: ${h.get('server')}`,
        !/^(DENY|SAMEORIGIN)$/i.test(h.get('x-frame-options') ?? '') && 'X-Frame-Options',
        !(Number(/max-age=(\d+)/.exec(h.get('strict-transport-security') ?? '')?.[1] ?? 0) >= 15_552_000) &&
          'Strict-Transport-Security max-age of 180 days or more',
        h.get('referrer-policy') !== 'no-referrer' && 'Referrer-Policy: no-referrer',
        !h.has('content-security-policy') && 'Content-Security-Policy',
        !h.has('cross-origin-resource-policy') && 'Cross-Origin-Resource-Policy',
        !/^[A-Za-z0-9._:-]{1,64}$/.test(h.get('x-request-id') ?? '') && 'X-Request-Id',
      ].filter(Boolean);
      return problems.map((p) => `${name} (${res.status}): ${String(p)}`);
    });
    expect(answers.map(([name, res]) => `${name}: ${res.status}`)).toHaveLength(29);
    expect(missing).toEqual([]);
  });

  it('when the API answers about balances and payouts, then the answer tells every cache not to store it (Cache-Control: no-store)', async () => {
    // A balance or a payout's state held by a shared cache or a browser's disk cache outlives the
    // session that asked for it (OWASP REST Security Cheat Sheet: Cache-Control: no-store on API responses).
    const answers = (await everyKindOfAnswer()).filter(([name]) =>
      /wallet|payout|lookup|conflict|validation|FAILED/.test(name),
    );
    expect(answers.length).toBeGreaterThan(8);
    const cacheable = answers
      .filter(([, res]) => !/\bno-store\b/.test(res.headers.get('cache-control') ?? ''))
      .map(([name, res]) => `${name} (${res.status}): Cache-Control ${res.headers.get('cache-control') ?? 'absent'}`);
    expect(cacheable).toEqual([]);
  });
});
