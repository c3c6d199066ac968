import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRailSim, type RailSimServer } from '@payout/rail-sim';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, useApi } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import {
  anyText,
  errorBody,
  expectJson,
  invalidMidBody,
  merchantSnapshot,
  unauthorizedBody,
} from './contract-expectations.js';

// Contract of POST /api/validate/account and POST /api/validate/upi (docs/api.md, "Beneficiary validation"),
// against the rail simulator's magic values (docs/rail-sim.md) and against a stub bank written here, which
// counts the questions it is asked (for the cache) and misbehaves on demand.

const prisma = testPrisma();
const pool = testPool();

/** A stub bank: answers validations with `reply`, counting what it is asked. */
interface StubBank {
  url: string;
  asked: string[];
  reply: (path: string, body: Record<string, string>) => { status: number; body: unknown };
  server: Server;
}
const stub: StubBank = { url: '', asked: [], reply: () => ({ status: 500, body: {} }), server: createServer() };
let railSim: RailSimServer;
let unreachableUrl: string;

async function readBody(req: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text) as Record<string, string>;
}

beforeAll(async () => {
  railSim = await createRailSim({ lostReplyMs: 5_000 }).listen(0);
  stub.server.on('request', (req, res) => {
    void readBody(req).then((body) => {
      stub.asked.push(`${req.url} ${JSON.stringify(body)}`);
      const { status, body: answer } = stub.reply(req.url ?? '', body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`;
  // A port that was free a moment ago: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  unreachableUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await railSim.close();
  await new Promise<void>((resolve) => stub.server.close(() => resolve()));
  await prisma.$disconnect();
  await pool.end();
});

// One API per bank. RAIL_BASE_URL is read when the API starts, after beforeAll above has run.
// One API per bank; each reads its RAIL_BASE_URL when it starts, after the banks above have started.
const simApi = useApi(() => ({ RAIL_BASE_URL: railSim.url, RAIL_RESPONSE_TIMEOUT_MS: '500' }));
const stubApi = useApi(() => ({ RAIL_BASE_URL: stub.url, VALIDATION_CACHE_TTL_MS: '400' }));
const deadRailApi = useApi(() => ({ RAIL_BASE_URL: unreachableUrl }));

const ACCOUNT = '/api/validate/account';
const UPI = '/api/validate/upi';
let merchant: TestMerchant;
beforeAll(async () => {
  merchant = await makeMerchant(prisma, { balance: '100.00' });
});

const validBody = (asked: Record<string, string>, name: string, message: unknown = anyText) => ({
  error: false,
  status_code: 200,
  status: 'VALID',
  ...asked,
  registered_name: name,
  message,
});
const invalidBody = (asked: Record<string, string>) => ({
  error: false,
  status_code: 200,
  status: 'INVALID',
  ...asked,
  registered_name: '',
  message: anyText,
});

describe('POST /api/validate/account (rail simulator)', () => {
  it('when the account exists, then 200 VALID with the account, the IFSC upper-cased and the registered name', async () => {
    const res = await call(simApi.current, ACCOUNT, { merchant, body: { Account: 123456789012, Ifsc: 'hdfc0001234' } });
    expectJson(res, 200, validBody({ account: '123456789012', ifsc: 'HDFC0001234' }, 'ASHA KUMAR'));
    expect(res.text).toContain('"account":"123456789012"');
  });

  it('when the account does not exist, then 200 INVALID with an empty registered name', async () => {
    const res = await call(simApi.current, ACCOUNT, {
      merchant,
      body: { Account: '000012345678', Ifsc: 'HDFC0001234' },
    });
    expectJson(res, 200, invalidBody({ account: '000012345678', ifsc: 'HDFC0001234' }));
  });

  it('when the bank holds another name, then 200 VALID with that name', async () => {
    const res = await call(simApi.current, ACCOUNT, {
      merchant,
      body: { Account: '123456782222', Ifsc: 'SBIN0000001' },
    });
    expectJson(res, 200, validBody({ account: '123456782222', ifsc: 'SBIN0000001' }, 'RAVI SHARMA'));
  });

  it('when the bank does not answer in time, then 503 SERVICE UNAVAILABLE and no money moves', async () => {
    const before = await merchantSnapshot(pool, merchant.merchant.id);
    const res = await call(simApi.current, ACCOUNT, {
      merchant,
      body: { Account: '123456783333', Ifsc: 'HDFC0001234' },
    });
    expectJson(res, 503, errorBody(503, 'SERVICE UNAVAILABLE'));
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when members are missing or malformed, then 422 listing each', async () => {
    const res = await call(simApi.current, ACCOUNT, { merchant, body: { Account: '12', Ifsc: 'HDFC1234' } });
    expectJson(res, 422, {
      ...errorBody(422, 'VALIDATION ERROR'),
      errors: [
        { field: 'Account', message: anyText },
        { field: 'Ifsc', message: anyText },
      ],
    });
    const empty = await call(simApi.current, ACCOUNT, { merchant, body: {} });
    expect((empty.json.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['Account', 'Ifsc']);
  });

  it('when credentials are missing or the MID malformed, then 401 or 400; GET is 405; a non-JSON body 415', async () => {
    expectJson(
      await call(simApi.current, ACCOUNT, { body: { Account: '123456789012', Ifsc: 'HDFC0001234' } }),
      401,
      unauthorizedBody,
    );
    const badMid = await call(simApi.current, ACCOUNT, {
      merchant: { mid: 'bad mid', token: merchant.token },
      body: { Account: '123456789012', Ifsc: 'HDFC0001234' },
    });
    expectJson(badMid, 400, invalidMidBody('FAILED'));
    expectJson(await call(simApi.current, ACCOUNT, { merchant }), 405, errorBody(405, 'METHOD NOT ALLOWED'));
    const text = await call(simApi.current, ACCOUNT, {
      merchant,
      body: 'x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expectJson(text, 415, errorBody(415, 'UNSUPPORTED MEDIA TYPE'));
  });
});

describe('POST /api/validate/upi (rail simulator)', () => {
  it.each([
    ['asha.kumar@okhdfc', validBody({ upi: 'asha.kumar@okhdfc' }, 'ASHA KUMAR')],
    ['invalid.user@okaxis', invalidBody({ upi: 'invalid.user@okaxis' })],
    ['othername@ybl', validBody({ upi: 'othername@ybl' }, 'RAVI SHARMA')],
  ])('when the address is %s, then 200 with the rail’s verdict', async (upi, body) => {
    expectJson(await call(simApi.current, UPI, { merchant, body: { Upi: upi } }), 200, body);
  });

  it('when the network does not answer in time, then 503', async () => {
    expectJson(
      await call(simApi.current, UPI, { merchant, body: { Upi: 'timeout@okhdfc' } }),
      503,
      errorBody(503, 'SERVICE UNAVAILABLE'),
    );
  });

  it('when Upi is not a UPI address, then 422', async () => {
    const res = await call(simApi.current, UPI, { merchant, body: { Upi: 'no-at-sign' } });
    expectJson(res, 422, { ...errorBody(422, 'VALIDATION ERROR'), errors: [{ field: 'Upi', message: anyText }] });
  });
});

describe('beneficiary validation against a stub bank', () => {
  it('when the same beneficiary is asked about again within the cache time, then the bank is asked once; after it, again', async () => {
    stub.asked = [];
    stub.reply = () => ({ status: 200, body: { status: 'VALID', registered_name: 'MEERA NAIR' } });
    const ask = () => call(stubApi.current, UPI, { merchant, body: { Upi: 'Meera@okicici' } });

    const [first, second] = await Promise.all([ask(), ask()]);
    const third = await call(stubApi.current, UPI, { merchant, body: { Upi: 'meera@OKICICI' } });

    for (const res of [first, second]) expectJson(res, 200, validBody({ upi: 'Meera@okicici' }, 'MEERA NAIR'));
    expectJson(third, 200, validBody({ upi: 'meera@OKICICI' }, 'MEERA NAIR'));
    expect(stub.asked).toEqual(['/v1/validations/upi {"upi":"Meera@okicici"}']);
    // Once the verdict is older than VALIDATION_CACHE_TTL_MS (400 ms here), the bank is asked again.
    await eventually(ask, () => stub.asked.length === 2, { what: 'the cached verdict to expire', intervalMs: 100 });
  });

  it('when the bank answers 500 or nonsense, then 503 and nothing is cached: the next question asks it again', async () => {
    stub.asked = [];
    stub.reply = () => ({ status: 500, body: { error: 'down' } });
    const body = { Account: '555566667777', Ifsc: 'ICIC0000001' };
    expectJson(await call(stubApi.current, ACCOUNT, { merchant, body }), 503, errorBody(503, 'SERVICE UNAVAILABLE'));
    stub.reply = () => ({ status: 200, body: { status: 'MAYBE' } });
    expectJson(await call(stubApi.current, ACCOUNT, { merchant, body }), 503, errorBody(503, 'SERVICE UNAVAILABLE'));
    stub.reply = () => ({ status: 200, body: { status: 'INVALID' } });
    expectJson(
      await call(stubApi.current, ACCOUNT, { merchant, body }),
      200,
      invalidBody({ account: '555566667777', ifsc: 'ICIC0000001' }),
    );
    expect(stub.asked).toEqual(
      Array(3).fill('/v1/validations/account {"account":"555566667777","ifsc":"ICIC0000001"}'),
    );
  });

  it('when nothing listens at the rail’s address, then 503', async () => {
    const res = await call(deadRailApi.current, UPI, { merchant, body: { Upi: 'asha@okhdfc' } });
    expectJson(res, 503, errorBody(503, 'SERVICE UNAVAILABLE'));
  });
});
