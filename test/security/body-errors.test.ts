import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppProcess } from '../support/app-process.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';

// A body the API cannot read is the client's fault: a 4xx in the API's usual JSON error body, on the
// merchant port and the admin listener alike, and never a password in the log — body readers keep the
// raw body on their errors and quote it in their messages (apps/api/src/http/error-handler.ts,
// "bodyReadingError"). The API runs as its own process, so the whole log it writes is what is searched.
const PASSWORD = `Body-Leak-${randomBytes(12).toString('hex')}`;

const prisma = testPrisma();
let api: AppProcess;
let merchantUrl: string;
let adminUrl: string;
let merchant: TestMerchant;

beforeAll(async () => {
  merchant = await makeMerchant(prisma, { balance: '100.00' });
  api = AppProcess.start('api', {
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    ADMIN_HOST: '127.0.0.1',
    METRICS_PORT: '0',
    RATE_LIMIT_ENABLED: 'false',
  });
  await api.logged('api listening', 60_000);
  const listening = api.lines.find((line) => line.msg === 'api listening')!;
  merchantUrl = `http://127.0.0.1:${Number(listening.port)}`;
  adminUrl = `http://127.0.0.1:${Number(listening.adminPort)}`;
}, 90_000);
afterAll(async () => {
  await api.stop();
  await prisma.$disconnect();
});

const signInJson = `{"username":"asha","password":"${PASSWORD}"}`;
const signInForm = `username=asha&password=${PASSWORD}`;
const notGzip = `password=${PASSWORD}`;

interface Case {
  name: string;
  url: () => string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

const cases: Case[] = [
  {
    name: 'admin sign-in, JSON broken inside the password',
    url: () => `${adminUrl}/admin/sign-in`,
    headers: { 'Content-Type': 'application/json' },
    body: `{"username":"asha","password":"${PASSWORD}"y"}`,
    status: 400,
  },
  {
    name: 'admin sign-in, JSON over the size limit',
    url: () => `${adminUrl}/admin/sign-in`,
    headers: { 'Content-Type': 'application/json' },
    body: `{"username":"asha","password":"${PASSWORD}","padding":"${'x'.repeat(8_000)}"}`,
    status: 413,
  },
  {
    name: 'admin sign-in, a charset JSON is never sent in',
    url: () => `${adminUrl}/admin/sign-in`,
    headers: { 'Content-Type': 'application/json; charset=latin1' },
    body: signInJson,
    status: 415,
  },
  {
    name: 'admin sign-in, "gzip" that is not',
    url: () => `${adminUrl}/admin/sign-in`,
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    body: notGzip,
    status: 400,
  },
  {
    name: 'admin sign-in, an unknown content coding',
    url: () => `${adminUrl}/admin/sign-in`,
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'x-secret' },
    body: signInJson,
    status: 415,
  },
  {
    name: 'console sign-in form, an unsupported charset',
    url: () => `${adminUrl}/console/login`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=koi8-r' },
    body: signInForm,
    status: 415,
  },
  {
    name: 'console sign-in form, more fields than a form has',
    url: () => `${adminUrl}/console/login`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `${signInForm}&${Array.from({ length: 60 }, (_, i) => `f${i}=1`).join('&')}`,
    status: 413,
  },
  {
    name: 'console sign-in form, "gzip" that is not',
    url: () => `${adminUrl}/console/login`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Encoding': 'gzip' },
    body: notGzip,
    status: 400,
  },
  {
    name: 'merchant payout, JSON broken inside a member',
    url: () => `${merchantUrl}/api/impspayout`,
    headers: { 'Content-Type': 'application/json' },
    body: `{"TransactionID":"1","Name":"${PASSWORD}"y"}`,
    status: 400,
  },
  {
    name: 'merchant payout, a compressed body',
    url: () => `${merchantUrl}/api/impspayout`,
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    body: notGzip,
    status: 415,
  },
  {
    name: 'merchant payout, over 16 KiB',
    url: () => `${merchantUrl}/api/impspayout`,
    headers: { 'Content-Type': 'application/json' },
    body: `{"Name":"${PASSWORD}","Description":"${'d'.repeat(17_000)}"}`,
    status: 413,
  },
];

describe('bodies the API cannot read', () => {
  it.each(cases.map((c) => [c.name, c.status, c] as const))(
    'when the request is %s, then the answer is %i in JSON',
    async (_name, _status, c) => {
      const response = await fetch(c.url(), {
        method: 'POST',
        headers: { ...c.headers, MID: merchant.mid, Token: merchant.token },
        body: c.body,
      });
      const text = await response.text();
      expect(response.status, text).toBe(c.status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(text)).toMatchObject({ error: true, status_code: c.status });
      expect(text).not.toContain(PASSWORD);
    },
  );

  it('when every one of them has been answered, then the whole log never carries the password', async () => {
    // A request's access line is its last; once every request has one, everything they logged is here.
    const answered = (line: Record<string, unknown>) =>
      line.msg === 'request completed' || line.msg === 'request errored';
    await eventually(
      () => Promise.resolve(api.lines.filter(answered).length),
      (count) => count >= cases.length,
      { what: 'an access line for each request' },
    );
    expect(JSON.stringify(api.lines)).not.toContain(PASSWORD);

    // Each refusal by a body reader is logged by its type and status alone (the merchant API reads broken
    // JSON itself, so that one is an ordinary refusal); none is an unexpected failure.
    const refusals = api.lines.filter((line) => line.msg === 'request body refused');
    expect(new Set(refusals.map((line) => line.type))).toEqual(
      new Set([
        'entity.parse.failed',
        'entity.too.large',
        'charset.unsupported',
        'entity.inflate.failed',
        'encoding.unsupported',
        'parameters.too.many',
      ]),
    );
    expect(refusals).toHaveLength(cases.length - 1);
    for (const line of refusals) expect(Object.keys(line)).not.toContain('body');
    expect(api.lines.filter((line) => line.msg === 'request failed' || line.level === 50)).toEqual([]);
  });
});
