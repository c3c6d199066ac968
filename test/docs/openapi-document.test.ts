import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCollection } from '@payout/db';
import { newAckNo } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { markPayoutSuccess } from '../api/contract-expectations.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, useApi, type ApiResponse } from '../support/api.js';
import {
  documentedBodyErrors,
  openApi31Problems,
  resolveRef,
  schemaErrors,
  type JsonObject,
} from './openapi-checks.js';

// GET /openapi.json: a valid OpenAPI 3.1 document of the five operations whose request schemas accept and
// refuse what the routes accept and refuse, and whose response schemas fit what the routes really answer.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
// A second API with a one-request allowance, to meet the documented 429.
const limitedApi = useApi({ RATE_LIMIT_POINTS: '1', RATE_LIMIT_WINDOW_MS: '60000' });
let document: JsonObject;
let funded: TestMerchant;
let unfunded: TestMerchant;

beforeAll(async () => {
  const res = await call(api.current, '/openapi.json');
  expect(res.status, res.text).toBe(200);
  document = res.json;
  funded = await makeMerchant(prisma, { balance: '100000.00' });
  unfunded = await makeMerchant(prisma);
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const OPERATIONS = {
  '/api/impspayout': ['post'],
  '/api/payout': ['post'],
  '/api/payout/cancel': ['post'],
  '/api/check_payout_status': ['get'],
  '/api/payin/status': ['get'],
  '/api/checkMainWallet': ['get'],
  '/api/bulkpayout': ['post'],
  '/api/bulkpayout/status': ['get'],
  '/api/validate/account': ['post'],
  '/api/validate/upi': ['post'],
  '/api/token/rotate': ['post'],
  '/api/token/revoke': ['post'],
  '/api/webhook/secret': ['post'],
  '/api/downtimes': ['get'],
  '/api/payouts': ['get'],
  '/api/statement': ['get'],
  '/api/events': ['get'],
};

const operation = (path: string, method: string) =>
  (document.paths as Record<string, Record<string, JsonObject>>)[path]![method]!;

function requestBodySchema(path: string): unknown {
  const body = operation(path, 'post').requestBody as { content: Record<string, { schema: unknown }> };
  return body.content['application/json']!.schema;
}

/** Asserts that a real answer is documented for its operation and status, and fits the documented body. */
function expectDocumented(path: string, method: string, res: ApiResponse): void {
  expect(documentedBodyErrors(document, path, method, res), res.text).toEqual([]);
}

describe('GET /openapi.json', () => {
  it('when fetched without credentials, then 200 JSON that is a valid OpenAPI 3.1 document', async () => {
    const res = await call(api.current, '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(openApi31Problems(res.json)).toEqual([]);
    expect(res.json.openapi).toBe('3.1.0');
  });

  it('when read, then it is versioned with the API package and describes exactly the merchant operations', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../apps/api/package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect((document.info as JsonObject).version).toBe(pkg.version);
    const described = Object.fromEntries(
      Object.entries(document.paths as Record<string, JsonObject>).map(([path, item]) => [path, Object.keys(item)]),
    );
    expect(described).toEqual(OPERATIONS);
  });

  it('when read, then every operation requires both the MID and the Token header', () => {
    const schemes = (document.components as JsonObject).securitySchemes;
    expect(schemes).toMatchObject({
      MID: { type: 'apiKey', in: 'header', name: 'MID' },
      Token: { type: 'apiKey', in: 'header', name: 'Token' },
    });
    for (const [path, methods] of Object.entries(OPERATIONS)) {
      expect(operation(path, methods[0]!).security, path).toEqual([{ MID: [], Token: [] }]);
    }
  });

  it('when read, then the number-or-string members and the async and replay rules are described for merchants', () => {
    const imps = resolveRef(document, '#/components/schemas/ImpsPayoutRequest') as {
      properties: Record<string, JsonObject>;
    };
    for (const member of ['TransactionID', 'Account', 'Mobile']) {
      expect(imps.properties[member]!.type, member).toEqual(expect.arrayContaining(['string', 'integer']));
    }
    expect(imps.properties.Amount!.type).toEqual(expect.arrayContaining(['string', 'number']));
    expect(imps.properties.Amount!.description).toMatch(/JSON number or a numeric string/);
    const overview = (document.info as JsonObject).description as string;
    expect(overview).toMatch(/202 PENDING/);
    expect(overview).toMatch(/check_payout_status/);
    expect(overview).toMatch(/same TransactionID again/);
    expect(overview).toMatch(/losslessly/);
  });

  it('when asked with another method, then 405 like any known path', async () => {
    const res = await call(api.current, '/openapi.json', { method: 'POST', body: {} });
    expect(res.status).toBe(405);
  });
});

// Representative bodies, sent to the route and checked against the published schema: both must agree.
// JSON Schema cannot say everything the route checks, so a few rules are described in words only and left
// out here: trimming (" HDFC0001234 ", a blank Name), upper-casing of Ifsc, "" meaning "not given" for an
// optional member, the range of an Amount written as a string, more than two fraction digits (or an
// exponent) in a numeric Amount or identifier, a merchant's own lower limit, and the e-mail syntax.
type Case = [what: string, body: string, accepted: boolean];
const text = (body: Record<string, unknown>) => JSON.stringify(body);
const without = (body: Record<string, unknown>, member: string) =>
  Object.fromEntries(Object.entries(body).filter(([name]) => name !== member));

const impsCases = (): Case[] => [
  ['all members as strings', text(impsBody()), true],
  [
    'identifiers and amount as JSON numbers, a 23-digit TransactionID',
    `{"TransactionID":1${newTransactionId().padEnd(22, '7').slice(0, 22)},"Amount":101.5,"Account":123456789012,` +
      `"Ifsc":"HDFC0001234","Name":"Asha Kumar","Mobile":9876543210}`,
    true,
  ],
  ['optional members null', text(impsBody({ BankName: null, Mobile: null, Email: null, Description: null })), true],
  ['optional members absent', text(without(without(without(impsBody(), 'Mobile'), 'Email'), 'BankName')), true],
  ['an unknown member', text(impsBody({ Purpose: 'ignored' })), true],
  ['the least amount, 1.00', text(impsBody({ Amount: '1.00' })), true],
  ['the IMPS ceiling as a number', text(impsBody({ Amount: 500000 })), true],
  ['TransactionID missing', text(without(impsBody(), 'TransactionID')), false],
  ['TransactionID of 31 digits', text(impsBody({ TransactionID: '1'.repeat(31) })), false],
  ['TransactionID with a letter', text(impsBody({ TransactionID: '12a45' })), false],
  ['TransactionID negative', text(impsBody({ TransactionID: -12345 })), false],
  ['TransactionID a boolean', text(impsBody({ TransactionID: true })), false],
  ['Amount missing', text(without(impsBody(), 'Amount')), false],
  ['Amount below 1.00 as a number', text(impsBody({ Amount: 0.5 })), false],
  ['Amount above the IMPS ceiling as a number', text(impsBody({ Amount: 500000.01 })), false],
  ['Amount with three fraction digits as a string', text(impsBody({ Amount: '101.505' })), false],
  ['Amount in exponent form as a string', text(impsBody({ Amount: '1e2' })), false],
  ['Amount negative as a string', text(impsBody({ Amount: '-5.00' })), false],
  ['Amount an object', text(impsBody({ Amount: { value: 1 } })), false],
  ['Account of 8 digits', text(impsBody({ Account: '12345678' })), false],
  [
    'Account of 19 digits as a number',
    text(impsBody()).replace(/"Account":"\d+"/, '"Account":1234567890123456789'),
    false,
  ],
  ['Ifsc without the zero', text(impsBody({ Ifsc: 'HDFC1001234' })), false],
  ['Ifsc missing', text(without(impsBody(), 'Ifsc')), false],
  ['Name empty', text(impsBody({ Name: '' })), false],
  ['Name of 101 characters', text(impsBody({ Name: 'a'.repeat(101) })), false],
  ['BankName of 101 characters', text(impsBody({ BankName: 'b'.repeat(101) })), false],
  ['Mobile starting with 5', text(impsBody({ Mobile: '5876543210' })), false],
  ['Mobile as a number of 11 digits', text(impsBody({ Mobile: 98765432101 })), false],
  ['Description of 256 characters', text(impsBody({ Description: 'd'.repeat(256) })), false],
];

const upiCases = (): Case[] => [
  ['all members as strings', text(upiBody()), true],
  ['TransactionID and Amount as JSON numbers', text(upiBody({ TransactionID: 98765, Amount: 2500 })), true],
  ['the UPI ceiling', text(upiBody({ Amount: '100000.00' })), true],
  ['optional members null', text(upiBody({ Mobile: null, Email: null, Description: null })), true],
  ['Amount above the UPI ceiling as a number', text(upiBody({ Amount: 100000.01 })), false],
  ['Upi missing', text(without(upiBody(), 'Upi')), false],
  ['Upi without @', text(upiBody({ Upi: 'asha.kumar' })), false],
  ['Upi with a digit in the handle', text(upiBody({ Upi: 'asha@ok1' })), false],
  ['Name missing', text(without(upiBody(), 'Name')), false],
  ['TransactionID a fraction', text(upiBody({ TransactionID: 12.5 })), false],
];

describe.each([
  ['/api/impspayout', impsCases],
  ['/api/payout', upiCases],
])('the published request schema of POST %s', (path, cases) => {
  it.each(cases())('when the body has %s, then the schema and the route agree', async (_what, body, accepted) => {
    const schemaAccepts = schemaErrors(document, requestBodySchema(path), JSON.parse(body)).length === 0;
    // The unfunded merchant: an accepted body fails for balance (400 FAILED), so no money moves.
    const res = await call(api.current, path, { merchant: unfunded, body });
    const routeAccepts = res.status !== 422;
    expect({ schemaAccepts, routeAccepts }, res.text).toEqual({ schemaAccepts: accepted, routeAccepts: accepted });
  });
});

describe.each(['/api/check_payout_status', '/api/payin/status'])('the published query of GET %s', (path) => {
  const parameter = () => (operation(path, 'get').parameters as JsonObject[]).find((p) => p.name === 'TransactionID')!;

  it.each([
    ['digits', '?TransactionID=20240601000123', true],
    ['30 digits', `?TransactionID=${'9'.repeat(30)}`, true],
    ['31 digits', `?TransactionID=${'9'.repeat(31)}`, false],
    ['a letter', '?TransactionID=12a', false],
    ['empty', '?TransactionID=', false],
  ])('when TransactionID is %s, then the schema and the route agree', async (_what, query, accepted) => {
    const value = new URLSearchParams(query).get('TransactionID')!;
    const schemaAccepts = schemaErrors(document, parameter().schema, value).length === 0;
    const res = await call(api.current, `${path}${query}`, { merchant: funded });
    expect({ schemaAccepts, routeAccepts: res.status !== 422 }, res.text).toEqual({
      schemaAccepts: accepted,
      routeAccepts: accepted,
    });
  });

  it('when TransactionID is missing, then the parameter is required and the route refuses it', async () => {
    expect(parameter().required).toBe(true);
    expect((await call(api.current, path, { merchant: funded })).status).toBe(422);
  });
});

describe('the published response schemas', () => {
  const payoutPaths = ['/api/impspayout', '/api/payout'] as const;
  const bodyFor = (path: string, overrides: Record<string, unknown> = {}) =>
    path === '/api/impspayout' ? impsBody(overrides) : upiBody(overrides);

  it.each(payoutPaths)(
    'when POST %s is accepted, replayed, fails for balance or conflicts, then every answer fits its documented body',
    async (path) => {
      const sent = bodyFor(path, { Amount: 101 });
      const accepted = await call(api.current, path, { merchant: funded, body: sent });
      expect(accepted.status, accepted.text).toBe(202);
      expectDocumented(path, 'post', accepted);
      const replay = await call(api.current, path, { merchant: funded, body: sent });
      expect(replay.status, replay.text).toBe(202);
      expectDocumented(path, 'post', replay);
      const conflict = await call(api.current, path, { merchant: funded, body: { ...sent, Amount: '102.00' } });
      expect(conflict.status, conflict.text).toBe(409);
      expectDocumented(path, 'post', conflict);

      const failed = await call(api.current, path, { merchant: unfunded, body: bodyFor(path) });
      expect(failed.status, failed.text).toBe(400);
      expectDocumented(path, 'post', failed);
      const lookup = await call(
        api.current,
        `/api/check_payout_status?TransactionID=${String(failed.json.TransactionID)}`,
        {
          merchant: unfunded,
        },
      );
      expect(lookup.status, lookup.text).toBe(200);
      expectDocumented('/api/check_payout_status', 'get', lookup);
    },
  );

  it('when a payout is cancelled, cancelled again, or is unknown, or a bank has it, then every answer fits its documented body', async () => {
    const path = '/api/payout/cancel';
    const sent = bodyFor('/api/impspayout');
    expect((await call(api.current, '/api/impspayout', { merchant: funded, body: sent })).status).toBe(202);
    const cancel = (TransactionID: unknown) => call(api.current, path, { merchant: funded, body: { TransactionID } });

    const cancelled = await cancel(sent.TransactionID);
    expect(cancelled.status, cancelled.text).toBe(200);
    expectDocumented(path, 'post', cancelled);
    expectDocumented(path, 'post', await cancel(sent.TransactionID));
    const unknown = await cancel('1');
    expect(unknown.status, unknown.text).toBe(404);
    expectDocumented(path, 'post', unknown);
    const invalid = await cancel('x');
    expect(invalid.status, invalid.text).toBe(422);
    expectDocumented(path, 'post', invalid);
    const other = bodyFor('/api/impspayout');
    expect((await call(api.current, '/api/impspayout', { merchant: funded, body: other })).status).toBe(202);
    await markPayoutSuccess(pool, funded.merchant.id, other.TransactionID);
    const sentAlready = await cancel(other.TransactionID);
    expect(sentAlready.status, sentAlready.text).toBe(409);
    expectDocumented(path, 'post', sentAlready);
  });

  it.each(payoutPaths)(
    'when POST %s is refused before the operation, then every refusal fits its documented body',
    async (path) => {
      const answers = [
        await call(api.current, path, { body: bodyFor(path) }),
        await call(api.current, path, { merchant: { mid: 'bad mid!', token: 'x' }, body: bodyFor(path) }),
        await call(api.current, path, { merchant: funded, body: '[1, 2]' }),
        await call(api.current, path, { merchant: funded, body: bodyFor(path, { Amount: 'lots' }) }),
        await call(api.current, path, {
          merchant: funded,
          body: text(bodyFor(path, { Description: 'x'.repeat(17_000) })),
        }),
        await call(api.current, path, { merchant: funded, headers: { 'Content-Type': 'text/plain' }, body: 'hello' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([401, 400, 400, 422, 413, 415]);
      for (const answer of answers) expectDocumented(path, 'post', answer);
    },
  );

  it('when the lookups find, miss or refuse, then every answer fits its documented body', async () => {
    const transactionId = newTransactionId();
    const recorded = await recordCollection(prisma, {
      merchantId: funded.merchant.id,
      transactionId,
      mode: 'INTENT',
      payerAccount: '',
      amountPaise: 50_000n,
      bankReference: '401234567890',
      ackNo: newAckNo(),
      status: 'SUCCESS',
    });
    expect(recorded.outcome).toBe('created');
    const payin = await call(api.current, `/api/payin/status?TransactionID=${transactionId}`, { merchant: funded });
    expect(payin.status, payin.text).toBe(200);
    expectDocumented('/api/payin/status', 'get', payin);

    for (const path of ['/api/check_payout_status', '/api/payin/status']) {
      const answers = [
        await call(api.current, `${path}?TransactionID=${newTransactionId()}`, { merchant: funded }),
        await call(api.current, `${path}?TransactionID=1`),
        await call(api.current, `${path}?TransactionID=1`, { merchant: { mid: 'bad mid!', token: 'x' } }),
        await call(api.current, `${path}?TransactionID=x`, { merchant: funded }),
      ];
      expect(answers.map((a) => a.status)).toEqual([404, 401, 400, 422]);
      for (const answer of answers) expectDocumented(path, 'get', answer);
    }
  });

  it('when the wallet lookup answers, then every answer fits its documented body', async () => {
    const path = '/api/checkMainWallet';
    const answers = [
      await call(api.current, `${path}?PayoutType=Main_Wallet_Balance`, { merchant: funded }),
      await call(api.current, `${path}?PayoutType=Main_Wallet_Balance`, { merchant: unfunded }),
      await call(api.current, `${path}?PayoutType=Other`, { merchant: funded }),
      await call(api.current, `${path}?PayoutType=Main_Wallet_Balance`, { merchant: { mid: 'bad mid!', token: 'x' } }),
      await call(api.current, `${path}?PayoutType=Main_Wallet_Balance`),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 400, 400, 401]);
    for (const answer of answers) expectDocumented(path, 'get', answer);
  });

  it('when a merchant is over its rate limit, then the 429 fits its documented body and sends Retry-After', async () => {
    // A merchant of its own: the allowance is counted in Redis across API processes.
    const merchant = await makeMerchant(prisma, { balance: '1.00' });
    const path = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';
    expect((await call(limitedApi.current, path, { merchant })).status).toBe(200);
    const limited = await call(limitedApi.current, path, { merchant });
    expect(limited.status, limited.text).toBe(429);
    expectDocumented('/api/checkMainWallet', 'get', limited);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    const documented = (operation('/api/checkMainWallet', 'get').responses as Record<string, JsonObject>)['429']!;
    expect(documented.headers).toHaveProperty('Retry-After');
  });
});

describe('the published bulk and validation schemas', () => {
  it('when a batch is accepted, replayed, looked up, conflicts or is refused, then every answer fits its documented body', async () => {
    const batchId = String(Date.now());
    const body = {
      BatchID: batchId,
      Payouts: [
        { Mode: 'IMPS', ...impsBody() },
        { Mode: 'UPI', ...upiBody({ Amount: 101 }) },
        { Mode: 'UPI', ...upiBody({ Upi: 'nope' }) },
        'not an object',
      ],
    };
    const accepted = await call(api.current, '/api/bulkpayout', { merchant: funded, body });
    expect(accepted.status, accepted.text).toBe(202);
    expectDocumented('/api/bulkpayout', 'post', accepted);
    const conflict = await call(api.current, '/api/bulkpayout', {
      merchant: funded,
      body: { ...body, Payouts: [body.Payouts[0]] },
    });
    expect(conflict.status, conflict.text).toBe(409);
    expectDocumented('/api/bulkpayout', 'post', conflict);
    const lookup = await call(api.current, `/api/bulkpayout/status?BatchID=${batchId}`, { merchant: funded });
    expect(lookup.status, lookup.text).toBe(200);
    expectDocumented('/api/bulkpayout/status', 'get', lookup);
    const missing = await call(api.current, '/api/bulkpayout/status?BatchID=1', { merchant: unfunded });
    expect(missing.status, missing.text).toBe(404);
    expectDocumented('/api/bulkpayout/status', 'get', missing);
    const refused = await call(api.current, '/api/bulkpayout', {
      merchant: funded,
      body: { BatchID: 'x', Payouts: [] },
    });
    expect(refused.status, refused.text).toBe(422);
    expectDocumented('/api/bulkpayout', 'post', refused);
  });

  it('when a validation request is malformed or the bank is unreachable, then the answer fits its documented body', async () => {
    const malformed = await call(api.current, '/api/validate/upi', { merchant: funded, body: { Upi: 'x' } });
    expect(malformed.status, malformed.text).toBe(422);
    expectDocumented('/api/validate/upi', 'post', malformed);
    const noBank = await call(api.current, '/api/validate/account', {
      merchant: funded,
      body: { Account: '123456789012', Ifsc: 'HDFC0001234' },
    });
    // No rail runs beside this API: whatever answers at RAIL_BASE_URL, the answer is documented.
    expect([200, 503], noBank.text).toContain(noBank.status);
    expectDocumented('/api/validate/account', 'post', noBank);
  });
});
