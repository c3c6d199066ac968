import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, upiBody, useApi, type ApiResponse } from '../support/api.js';
import {
  CONTRACT_MESSAGES,
  anyText,
  credentialHeaders,
  errorBody,
  expectJson,
  expectValidationError,
  jsonText,
  merchantSnapshot,
  sendBytes,
} from './contract-expectations.js';

// A table of malformed requests across the five endpoints. Each is answered with the contract's error
// (docs/api.md, "Order of checks": 400 BAD REQUEST for a body that is not a JSON object, 413, 415, 422 VALIDATION ERROR
// naming the failing fields, 400 BAD REQUEST for a bad PayoutType) and changes nothing: the merchant is
// funded far beyond any amount in the table, so a request wrongly let through would leave a payout, ledger
// legs, an event or a wallet change behind, and the before/after snapshots would differ.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

type Endpoint = 'IMPS' | 'UPI' | 'PAYOUT_STATUS' | 'PAYIN_STATUS' | 'WALLET';

const PATHS: Record<Endpoint, string> = {
  IMPS: '/api/impspayout',
  UPI: '/api/payout',
  PAYOUT_STATUS: '/api/check_payout_status',
  PAYIN_STATUS: '/api/payin/status',
  WALLET: '/api/checkMainWallet',
};

type Outcome = { status: 422; fields: string[] } | { status: 400 | 413 | 415; statusText: string; message?: string };

interface BadCase {
  name: string;
  endpoint: Endpoint;
  /** The POST body; a builder, so every send gets a fresh TransactionID. */
  body?: () => string | Uint8Array;
  /** The query string of a GET, with its "?". */
  query?: string;
  /** Content-Type of a POST: application/json unless given; null sends none. */
  contentType?: string | null;
  /** The contract's answer, or the answers it allows when it leaves the choice open. */
  expected: Outcome | Outcome[];
}

const invalid = (...fields: string[]): Outcome => ({ status: 422, fields });
const BAD_REQUEST: Outcome = { status: 400, statusText: 'BAD REQUEST' };
const BAD_PAYOUT_TYPE: Outcome = {
  status: 400,
  statusText: 'BAD REQUEST',
  message: CONTRACT_MESSAGES.invalidPayoutType,
};

// Bodies: a valid body with some members replaced (undefined removes one), or with members written as raw
// JSON literals, or raw text.
const imps = (overrides: Record<string, unknown>) => () => JSON.stringify(impsBody(overrides));
const impsLiterals = (literals: Record<string, string>) => () => jsonText(impsBody(), literals);
const upi = (overrides: Record<string, unknown>) => () => JSON.stringify(upiBody(overrides));
const upiLiterals = (literals: Record<string, string>) => () => jsonText(upiBody(), literals);
const raw = (text: string) => () => text;
/** A valid IMPS body with `member` inserted first, as raw JSON text. */
const impsWith = (member: string) => () => JSON.stringify(impsBody()).replace('{', `{${member},`);

const CASES: BadCase[] = [
  // --- IMPS: Amount
  { name: 'IMPS Amount is a boolean', endpoint: 'IMPS', body: imps({ Amount: true }), expected: invalid('Amount') },
  {
    name: 'IMPS Amount is 1e400',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: '1e400' }),
    expected: invalid('Amount'),
  },
  {
    name: 'IMPS Amount is a 40-digit number',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: '1'.repeat(40) }),
    expected: invalid('Amount'),
  },
  {
    name: 'IMPS Amount is a 40-digit string',
    endpoint: 'IMPS',
    body: imps({ Amount: `${'9'.repeat(40)}.00` }),
    expected: invalid('Amount'),
  },
  {
    name: 'IMPS Amount is negative',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: '-101.00' }),
    expected: invalid('Amount'),
  },
  { name: 'IMPS Amount is zero', endpoint: 'IMPS', body: impsLiterals({ Amount: '0' }), expected: invalid('Amount') },
  { name: 'IMPS Amount is "0.00"', endpoint: 'IMPS', body: imps({ Amount: '0.00' }), expected: invalid('Amount') },
  {
    name: 'IMPS Amount is 0.99, below 1.00',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: '0.99' }),
    expected: invalid('Amount'),
  },
  {
    name: 'IMPS Amount has 3 fraction digits',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: '101.001' }),
    expected: invalid('Amount'),
  },
  {
    name: 'IMPS Amount is "1.000" (3 fraction digits, even if zero)',
    endpoint: 'IMPS',
    body: imps({ Amount: '1.000' }),
    expected: invalid('Amount'),
  },
  {
    name: 'IMPS Amount has an exponent',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: '1.01e2' }),
    expected: invalid('Amount'),
  },
  { name: 'IMPS Amount is "1E2"', endpoint: 'IMPS', body: imps({ Amount: '1E2' }), expected: invalid('Amount') },
  {
    name: 'IMPS Amount has a currency sign',
    endpoint: 'IMPS',
    body: imps({ Amount: '₹101.00' }),
    expected: invalid('Amount'),
  },
  {
    name: 'IMPS Amount has a thousands separator',
    endpoint: 'IMPS',
    body: imps({ Amount: '1,000.00' }),
    expected: invalid('Amount'),
  },
  { name: 'IMPS Amount is "NaN"', endpoint: 'IMPS', body: imps({ Amount: 'NaN' }), expected: invalid('Amount') },
  {
    name: 'IMPS Amount is over the 500000.00 ceiling',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: '500000.01' }),
    expected: invalid('Amount'),
  },
  { name: 'IMPS Amount is missing', endpoint: 'IMPS', body: imps({ Amount: undefined }), expected: invalid('Amount') },
  // --- IMPS: Ifsc
  {
    name: 'IMPS Ifsc is lower case and has no 0 in fifth place',
    endpoint: 'IMPS',
    body: imps({ Ifsc: 'hdfc1001234' }),
    expected: invalid('Ifsc'),
  },
  {
    name: 'IMPS Ifsc is short (10 characters)',
    endpoint: 'IMPS',
    body: imps({ Ifsc: 'HDFC000123' }),
    expected: invalid('Ifsc'),
  },
  {
    name: 'IMPS Ifsc has digits in the bank code',
    endpoint: 'IMPS',
    body: imps({ Ifsc: 'HD1C0001234' }),
    expected: invalid('Ifsc'),
  },
  {
    name: 'IMPS Ifsc is a number',
    endpoint: 'IMPS',
    body: impsLiterals({ Ifsc: '12345678901' }),
    expected: invalid('Ifsc'),
  },
  // --- IMPS: Account
  {
    name: 'IMPS Account has 8 digits',
    endpoint: 'IMPS',
    body: imps({ Account: '12345678' }),
    expected: invalid('Account'),
  },
  {
    name: 'IMPS Account has 19 digits (as a number)',
    endpoint: 'IMPS',
    body: impsLiterals({ Account: '1234567890123456789' }),
    expected: invalid('Account'),
  },
  {
    name: 'IMPS Account has a letter',
    endpoint: 'IMPS',
    body: imps({ Account: '12345678901A' }),
    expected: invalid('Account'),
  },
  {
    name: 'IMPS Account is a float',
    endpoint: 'IMPS',
    body: impsLiterals({ Account: '123456789012.5' }),
    expected: invalid('Account'),
  },
  {
    name: 'IMPS Account has Devanagari digits',
    endpoint: 'IMPS',
    body: imps({ Account: '१२३४५६७८९०१२' }),
    expected: invalid('Account'),
  },
  {
    name: 'IMPS Account is missing',
    endpoint: 'IMPS',
    body: imps({ Account: undefined }),
    expected: invalid('Account'),
  },
  // --- IMPS: Mobile, Email, Name, BankName, Description
  {
    name: 'IMPS Mobile starts with 5',
    endpoint: 'IMPS',
    body: imps({ Mobile: '5876543210' }),
    expected: invalid('Mobile'),
  },
  {
    name: 'IMPS Mobile has 11 digits (as a number)',
    endpoint: 'IMPS',
    body: impsLiterals({ Mobile: '98765432101' }),
    expected: invalid('Mobile'),
  },
  {
    name: 'IMPS Mobile has a +91 prefix',
    endpoint: 'IMPS',
    body: imps({ Mobile: '+919876543210' }),
    expected: invalid('Mobile'),
  },
  { name: 'IMPS Email has no domain', endpoint: 'IMPS', body: imps({ Email: 'asha@' }), expected: invalid('Email') },
  {
    name: 'IMPS Email has no @',
    endpoint: 'IMPS',
    body: imps({ Email: 'asha.example.com' }),
    expected: invalid('Email'),
  },
  { name: 'IMPS Email is a number', endpoint: 'IMPS', body: impsLiterals({ Email: '42' }), expected: invalid('Email') },
  {
    name: 'IMPS Name has 101 characters',
    endpoint: 'IMPS',
    body: imps({ Name: 'N'.repeat(101) }),
    expected: invalid('Name'),
  },
  {
    name: 'IMPS Name has 101 non-ASCII characters',
    endpoint: 'IMPS',
    body: imps({ Name: 'आ'.repeat(101) }),
    expected: invalid('Name'),
  },
  { name: 'IMPS Name is only spaces', endpoint: 'IMPS', body: imps({ Name: '   ' }), expected: invalid('Name') },
  {
    name: 'IMPS Name is an object',
    endpoint: 'IMPS',
    body: imps({ Name: { first: 'Asha' } }),
    expected: invalid('Name'),
  },
  { name: 'IMPS Name is missing', endpoint: 'IMPS', body: imps({ Name: undefined }), expected: invalid('Name') },
  {
    name: 'IMPS Name holds a NUL character',
    endpoint: 'IMPS',
    body: imps({ Name: 'Asha\u0000Kumar' }),
    expected: invalid('Name'),
  },
  {
    name: 'IMPS Name holds a lone UTF-16 surrogate',
    endpoint: 'IMPS',
    body: imps({ Name: 'Asha\ud800' }),
    expected: [invalid('Name'), BAD_REQUEST],
  },
  {
    name: 'IMPS BankName has 101 characters',
    endpoint: 'IMPS',
    body: imps({ BankName: 'B'.repeat(101) }),
    expected: invalid('BankName'),
  },
  {
    name: 'IMPS Description has 256 characters',
    endpoint: 'IMPS',
    body: imps({ Description: 'D'.repeat(256) }),
    expected: invalid('Description'),
  },
  {
    name: 'IMPS Description holds a NUL character',
    endpoint: 'IMPS',
    body: imps({ Description: 'Salary\u0000' }),
    expected: invalid('Description'),
  },
  // --- IMPS: TransactionID
  {
    name: 'IMPS TransactionID has 31 digits',
    endpoint: 'IMPS',
    body: imps({ TransactionID: '1'.repeat(31) }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID has 31 digits as a number',
    endpoint: 'IMPS',
    body: impsLiterals({ TransactionID: '2'.repeat(31) }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID has letters',
    endpoint: 'IMPS',
    body: imps({ TransactionID: '1234ABCD' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID is a float',
    endpoint: 'IMPS',
    body: impsLiterals({ TransactionID: '12345.5' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID is 1e5',
    endpoint: 'IMPS',
    body: impsLiterals({ TransactionID: '1e5' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID is negative',
    endpoint: 'IMPS',
    body: impsLiterals({ TransactionID: '-12345' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID has Arabic-Indic digits',
    endpoint: 'IMPS',
    body: imps({ TransactionID: '١٢٣٤٥' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID is ""',
    endpoint: 'IMPS',
    body: imps({ TransactionID: '' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID is null',
    endpoint: 'IMPS',
    body: imps({ TransactionID: null }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS TransactionID is an array',
    endpoint: 'IMPS',
    body: impsLiterals({ TransactionID: '[12345]' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'IMPS has several bad members at once',
    endpoint: 'IMPS',
    body: imps({ Amount: '-1', Account: '1', Ifsc: 'X', TransactionID: 'x' }),
    expected: invalid('Amount', 'Account', 'Ifsc', 'TransactionID'),
  },
  // --- IMPS: the body itself
  {
    name: 'IMPS body is not JSON',
    endpoint: 'IMPS',
    body: raw('TransactionID=1&Amount=101.00'),
    expected: BAD_REQUEST,
  },
  {
    name: 'IMPS body is single-quoted pseudo-JSON',
    endpoint: 'IMPS',
    body: raw("{'Amount': '101.00'}"),
    expected: BAD_REQUEST,
  },
  { name: 'IMPS body is truncated', endpoint: 'IMPS', body: raw('{"Amount":"101.00",'), expected: BAD_REQUEST },
  {
    name: 'IMPS body has trailing garbage',
    endpoint: 'IMPS',
    body: () => `${JSON.stringify(impsBody())} trailing`,
    expected: BAD_REQUEST,
  },
  {
    name: 'IMPS body has a NaN literal',
    endpoint: 'IMPS',
    body: impsLiterals({ Amount: 'NaN' }),
    expected: BAD_REQUEST,
  },
  {
    name: 'IMPS body is a JSON array',
    endpoint: 'IMPS',
    body: () => JSON.stringify([impsBody()]),
    expected: BAD_REQUEST,
  },
  { name: 'IMPS body is JSON null', endpoint: 'IMPS', body: raw('null'), expected: BAD_REQUEST },
  { name: 'IMPS body is a JSON number', endpoint: 'IMPS', body: raw('101.00'), expected: BAD_REQUEST },
  { name: 'IMPS body is JSON true', endpoint: 'IMPS', body: raw('true'), expected: BAD_REQUEST },
  { name: 'IMPS body is a JSON string', endpoint: 'IMPS', body: raw('"{}"'), expected: BAD_REQUEST },
  { name: 'IMPS body is empty', endpoint: 'IMPS', body: raw(''), expected: BAD_REQUEST },
  {
    name: 'IMPS body has duplicate keys with different values',
    endpoint: 'IMPS',
    body: impsWith('"Amount":"499999.00"'),
    expected: BAD_REQUEST,
  },
  {
    name: 'IMPS body nests an unknown member 40 levels deep',
    endpoint: 'IMPS',
    body: impsWith(`"Extra":${'['.repeat(40)}${']'.repeat(40)}`),
    expected: BAD_REQUEST,
  },
  {
    name: 'IMPS body is nested 2000 levels deep',
    endpoint: 'IMPS',
    body: raw(`${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`),
    expected: BAD_REQUEST,
  },
  {
    name: 'IMPS body is not UTF-8',
    endpoint: 'IMPS',
    body: () => Uint8Array.from([0x7b, 0x22, 0x4e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    expected: BAD_REQUEST,
  },
  {
    name: 'IMPS body is over 16 KiB',
    endpoint: 'IMPS',
    body: imps({ Description: 'x'.repeat(17 * 1024) }),
    expected: { status: 413, statusText: 'PAYLOAD TOO LARGE' },
  },
  {
    name: 'IMPS body is sent as text/plain',
    endpoint: 'IMPS',
    body: imps({}),
    contentType: 'text/plain',
    expected: { status: 415, statusText: 'UNSUPPORTED MEDIA TYPE' },
  },
  {
    name: 'IMPS body is sent without a Content-Type',
    endpoint: 'IMPS',
    body: imps({}),
    contentType: null,
    expected: { status: 415, statusText: 'UNSUPPORTED MEDIA TYPE' },
  },
  // --- UPI
  { name: 'UPI Upi has no @', endpoint: 'UPI', body: upi({ Upi: 'asha.kumar.okhdfc' }), expected: invalid('Upi') },
  { name: 'UPI Upi has two @', endpoint: 'UPI', body: upi({ Upi: 'asha@kumar@okhdfc' }), expected: invalid('Upi') },
  { name: 'UPI Upi handle has digits', endpoint: 'UPI', body: upi({ Upi: 'asha@ok123' }), expected: invalid('Upi') },
  { name: 'UPI Upi has a space', endpoint: 'UPI', body: upi({ Upi: 'asha kumar@okhdfc' }), expected: invalid('Upi') },
  { name: 'UPI Upi is a number', endpoint: 'UPI', body: upiLiterals({ Upi: '9876543210' }), expected: invalid('Upi') },
  { name: 'UPI Upi is missing', endpoint: 'UPI', body: upi({ Upi: undefined }), expected: invalid('Upi') },
  {
    name: 'UPI Amount is over the 100000.00 ceiling',
    endpoint: 'UPI',
    body: upiLiterals({ Amount: '100000.01' }),
    expected: invalid('Amount'),
  },
  {
    name: 'UPI Amount is a string of words',
    endpoint: 'UPI',
    body: upi({ Amount: 'one hundred' }),
    expected: invalid('Amount'),
  },
  {
    name: 'UPI TransactionID is a float',
    endpoint: 'UPI',
    body: upiLiterals({ TransactionID: '123.0' }),
    expected: invalid('TransactionID'),
  },
  {
    name: 'UPI Mobile has a space',
    endpoint: 'UPI',
    body: upi({ Mobile: '98765 43210' }),
    expected: invalid('Mobile'),
  },
  {
    name: 'UPI Name has 101 characters',
    endpoint: 'UPI',
    body: upi({ Name: 'x'.repeat(101) }),
    expected: invalid('Name'),
  },
  {
    name: 'UPI Description has 256 characters',
    endpoint: 'UPI',
    body: upi({ Description: 'é'.repeat(256) }),
    expected: invalid('Description'),
  },
  {
    name: 'UPI has several bad members at once',
    endpoint: 'UPI',
    body: upi({ Amount: '-1', Upi: 'x', Email: 'y' }),
    expected: invalid('Amount', 'Upi', 'Email'),
  },
  { name: 'UPI body is a JSON array', endpoint: 'UPI', body: raw('[1,2,3]'), expected: BAD_REQUEST },
  { name: 'UPI body is JSON null', endpoint: 'UPI', body: raw('null'), expected: BAD_REQUEST },
  {
    name: 'UPI body has duplicate TransactionID keys with different values',
    endpoint: 'UPI',
    body: () => JSON.stringify(upiBody()).replace('{', '{"TransactionID":"1",'),
    expected: BAD_REQUEST,
  },
  // --- Payout status lookup
  {
    name: 'payout status TransactionID is missing',
    endpoint: 'PAYOUT_STATUS',
    query: '',
    expected: invalid('TransactionID'),
  },
  {
    name: 'payout status TransactionID is empty',
    endpoint: 'PAYOUT_STATUS',
    query: '?TransactionID=',
    expected: invalid('TransactionID'),
  },
  {
    name: 'payout status TransactionID has letters',
    endpoint: 'PAYOUT_STATUS',
    query: '?TransactionID=12ab',
    expected: invalid('TransactionID'),
  },
  {
    name: 'payout status TransactionID has 31 digits',
    endpoint: 'PAYOUT_STATUS',
    query: `?TransactionID=${'3'.repeat(31)}`,
    expected: invalid('TransactionID'),
  },
  {
    name: 'payout status TransactionID is a float',
    endpoint: 'PAYOUT_STATUS',
    query: '?TransactionID=12.5',
    expected: invalid('TransactionID'),
  },
  {
    name: 'payout status TransactionID is repeated twice',
    endpoint: 'PAYOUT_STATUS',
    query: '?TransactionID=123&TransactionID=456',
    expected: invalid('TransactionID'),
  },
  {
    name: 'payout status TransactionID has Arabic-Indic digits',
    endpoint: 'PAYOUT_STATUS',
    query: `?TransactionID=${encodeURIComponent('١٢٣')}`,
    expected: invalid('TransactionID'),
  },
  {
    name: 'payout status TransactionID has an encoded NUL',
    endpoint: 'PAYOUT_STATUS',
    query: '?TransactionID=123%00',
    expected: invalid('TransactionID'),
  },
  // --- Pay-in status lookup
  {
    name: 'pay-in status TransactionID is missing',
    endpoint: 'PAYIN_STATUS',
    query: '',
    expected: invalid('TransactionID'),
  },
  {
    name: 'pay-in status TransactionID is negative',
    endpoint: 'PAYIN_STATUS',
    query: '?TransactionID=-1',
    expected: invalid('TransactionID'),
  },
  {
    name: 'pay-in status TransactionID has a leading space (+)',
    endpoint: 'PAYIN_STATUS',
    query: '?TransactionID=+123',
    expected: invalid('TransactionID'),
  },
  {
    name: 'pay-in status TransactionID is repeated twice',
    endpoint: 'PAYIN_STATUS',
    query: '?TransactionID=1&TransactionID=1',
    expected: invalid('TransactionID'),
  },
  {
    name: 'pay-in status TransactionID is sent in brackets',
    endpoint: 'PAYIN_STATUS',
    query: '?TransactionID[]=123',
    expected: invalid('TransactionID'),
  },
  {
    name: 'pay-in status TransactionID has 31 digits',
    endpoint: 'PAYIN_STATUS',
    query: `?TransactionID=${'4'.repeat(31)}`,
    expected: invalid('TransactionID'),
  },
  // --- Wallet lookup
  { name: 'wallet PayoutType is missing', endpoint: 'WALLET', query: '', expected: BAD_PAYOUT_TYPE },
  { name: 'wallet PayoutType is empty', endpoint: 'WALLET', query: '?PayoutType=', expected: BAD_PAYOUT_TYPE },
  {
    name: 'wallet PayoutType is in lower case',
    endpoint: 'WALLET',
    query: '?PayoutType=main_wallet_balance',
    expected: BAD_PAYOUT_TYPE,
  },
  {
    name: 'wallet PayoutType is repeated twice',
    endpoint: 'WALLET',
    query: '?PayoutType=Main_Wallet_Balance&PayoutType=Main_Wallet_Balance',
    expected: BAD_PAYOUT_TYPE,
  },
  {
    name: 'wallet PayoutType has a trailing accent',
    endpoint: 'WALLET',
    query: `?PayoutType=${encodeURIComponent('Main_Wallet_Balancé')}`,
    expected: BAD_PAYOUT_TYPE,
  },
  {
    name: 'wallet PayoutType has a trailing space',
    endpoint: 'WALLET',
    query: '?PayoutType=Main_Wallet_Balance%20',
    expected: BAD_PAYOUT_TYPE,
  },
];

function send(c: BadCase, merchant: TestMerchant): Promise<ApiResponse> {
  const path = PATHS[c.endpoint] + (c.query ?? '');
  if (!c.body) return call(api.current, path, { merchant });
  const headers = credentialHeaders(merchant);
  if (c.contentType !== null) headers['Content-Type'] = c.contentType ?? 'application/json';
  const body = c.body();
  return sendBytes(api.current.url, path, {
    headers,
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
  });
}

const alternatives = (c: BadCase): Outcome[] => (Array.isArray(c.expected) ? c.expected : [c.expected]);

function expectOutcome(res: ApiResponse, c: BadCase): void {
  const allowed = alternatives(c);
  const outcome = allowed.find((o) => o.status === res.status) ?? allowed[0]!;
  if (outcome.status === 422) expectValidationError(res, outcome.fields);
  else expectJson(res, outcome.status, errorBody(outcome.status, outcome.statusText, outcome.message ?? anyText));
}

const describeOutcome = (c: BadCase): string =>
  alternatives(c)
    .map((o) => (o.status === 422 ? `422 naming ${o.fields.join(', ')}` : `${o.status} ${o.statusText}`))
    .join(' or ');

describe('malformed requests across the five endpoints', () => {
  it('when the table is built, then it holds at least 40 cases and covers every endpoint', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map((c) => c.endpoint))).toEqual(new Set(Object.keys(PATHS)));
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  it.each(CASES.map((c) => ({ ...c, outcome: describeOutcome(c) })))(
    'when $name, then $outcome and nothing changes',
    async (c) => {
      const merchant = await makeMerchant(prisma, { balance: '1000000.00' });
      const before = await merchantSnapshot(pool, merchant.merchant.id);

      const res = await send(c, merchant);

      expect.soft(await merchantSnapshot(pool, merchant.merchant.id), 'database changed').toEqual(before);
      expectOutcome(res, c);
    },
  );

  it('when one merchant sends the whole table, then every answer is the contract error and no payout, ledger entry, event or wallet changed', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000000.00' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);
    expect(before).toMatchObject({ payouts: 0, ledger_entries: 2, payout_events: 0 });

    const answers: { name: string; status: number }[] = [];
    for (const c of CASES) {
      const res = await send(c, merchant);
      const allowed = alternatives(c).map((o) => o.status as number);
      answers.push({ name: c.name, status: allowed.includes(res.status) ? allowed[0]! : res.status });
    }

    expect.soft(answers).toEqual(CASES.map((c) => ({ name: c.name, status: alternatives(c)[0]!.status })));
    expect(await merchantSnapshot(pool, merchant.merchant.id), 'database changed').toEqual(before);
  });
});
