import http from 'node:http';
import querystring from 'node:querystring';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '@payout/domain';
import { useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { insertCollection } from '../api/contract-expectations.js';
import {
  amountLiteral,
  bodyBytes,
  bodyRecipe,
  edgeBodyRecipes,
  edgeHeaderRecipes,
  edgeRouteRecipes,
  editMembers,
  padMembers,
  headerRecipe,
  MERCHANT_PATHS,
  queryRecipe,
  routeRecipe,
  validMembers,
  validRecipe,
  type BodyRecipe,
  type CredentialHeader,
  type HeaderRecipe,
  type Member,
  type PayoutMode,
  type QueryRecipe,
  type QueryValue,
  type RouteRecipe,
  type ValidRecipe,
} from './bad-input-generators.js';
import { judgeAnswer } from './contract-oracle.js';
import { databaseSnapshot, snapshotChanges, type DatabaseSnapshot } from './database-snapshot.js';
import { acceptableInstruction, rupeesText, type AcceptableInstruction } from './payout-request-rules.js';
import { sendRawBytes, sendRequest, type WireRequest, type WireResponse } from './raw-http.js';

// A generated sweep of hostile requests against every endpoint of the running API. Every answer must be
// the contract's JSON error or a correct result (checked field by field against the request, and against
// the database); a rejected request must leave the database exactly as it was; and the process must still
// answer afterwards. The inputs come from a seed (FC_SEED replays a run); a failure lists every distinct
// problem with examples, not just the first.
//
// The rate limiter is off here: it would answer most of a few thousand requests with a (correct) 429 and
// hide what the sweep is looking for.

const api = useApi({ RATE_LIMIT_ENABLED: 'false' });
const prisma = testPrisma();
const pool = testPool();
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
const BODY_LIMIT = 16 * 1024;
// Each family takes seconds; the bound is generous for a loaded CI machine, and still a bound.
const SWEEP_TIMEOUT_MS = 90_000;
const CONTRACT = {
  pending: 'MP006 - Your transaction is in progress',
  invalidMid: 'Please Input Valid MID',
  notFound: 'Transaction not found, Please Contact the Administrator.',
  badPayoutType: 'Something went wrong, please input valid payout type',
};

let merchant: TestMerchant;
let other: TestMerchant;
let collectionTransactionId: string;

interface AcceptedPayout {
  mode: PayoutMode;
  instruction: AcceptableInstruction;
  ackNo: string;
  members: Member[];
}
/** Payouts the sweep got accepted, by TransactionID: replays and lookups are judged against them. */
const accepted = new Map<string, AcceptedPayout>();

let transactionCounter = 0;
const freshTransactionId = () =>
  `7${String(SEED >>> 0).padStart(10, '0')}${String(++transactionCounter).padStart(6, '0')}`;

interface Violation {
  family: string;
  problem: string;
  request: string;
  answer: string;
}
const violations: Violation[] = [];
const tried = new Map<string, number>();

beforeAll(async () => {
  merchant = await makeMerchant(prisma, { balance: '1000000000000.00' });
  other = await makeMerchant(prisma, { balance: '1000.00' });
  collectionTransactionId = `5${Date.now()}`;
  await insertCollection(pool, {
    merchantId: merchant.merchant.id,
    transactionId: collectionTransactionId,
    amountPaise: 12_345n,
    bankReference: '401234567890',
  });
  // One accepted payout from the start, so the lookups of every family have a payout to find.
  await sendValidVariant('setup', {
    mode: 'UPI',
    paise: 10_150n,
    amountAs: 'string',
    amountForm: 'two',
    transactionIdAs: 'string',
    optionalAs: 'present',
    ifscLowerCase: false,
    extra: null,
    blanks: false,
  });
  expect(violations).toEqual([]);
  expect(accepted.size).toBe(1);
});

afterAll(async () => {
  agent.destroy();
  const total = [...tried.values()].reduce((a, b) => a + b, 0);
  const parts = [...tried].map(([family, n]) => `${family} ${n}`).join(', ');
  console.log(
    `bad-input sweep: ${total} requests tried (${parts}); ${violations.length} violations; seed ${SEED} (FC_SEED=${SEED} replays it)`,
  );
  await prisma.$disconnect();
  await pool.end();
});

// --- Sending and judging

let lastSnapshot: DatabaseSnapshot | undefined;

interface Outcome {
  problems: string[];
  /** The request created this payout: the database must show exactly it, and nothing else. */
  created?: AcceptedPayout;
}

function describeRequest(r: WireRequest): string {
  // Tokens are shown by their first characters only, even in a test's report.
  const shown = (k: string, v: string) =>
    /^token$/i.test(k) ? `${v.slice(0, 8)}…(${v.length})` : v.length > 40 ? `${v.slice(0, 40)}…(${v.length})` : v;
  const headers = r.headers.map(([k, v]) => `${k}: ${shown(k, v)}`).join(' | ');
  const body = r.body ? JSON.stringify(r.body.toString('latin1').slice(0, 160)) + ` (${r.body.length} bytes)` : '';
  return `${r.method} ${r.path.slice(0, 120)} [${headers}] ${body}`;
}

function record(family: string, problems: string[], request: WireRequest, answer: string): void {
  for (const problem of problems) violations.push({ family, problem, request: describeRequest(request), answer });
}

async function exchange(
  family: string,
  request: WireRequest,
  judge: (res: WireResponse, json: Record<string, unknown> | null, before: DatabaseSnapshot) => Outcome,
): Promise<void> {
  tried.set(family, (tried.get(family) ?? 0) + 1);
  // Nothing but the sweep writes to this database, so the state after one request is the state before the next.
  const before = lastSnapshot ?? (await databaseSnapshot(pool, merchant.merchant.id));
  lastSnapshot = undefined;
  let res: WireResponse;
  try {
    res = await sendRequest(api.current.port, request, agent);
  } catch (error) {
    record(family, [`no answer: ${(error as Error).message}`], request, '');
    return;
  }
  const judged = judgeAnswer(res.status, res.headers, res.text, { headRequest: request.method === 'HEAD' });
  const requestId = res.headers['x-request-id'];
  if (typeof requestId !== 'string' || !/^[A-Za-z0-9._:-]{1,64}$/.test(requestId)) {
    judged.problems.push(`X-Request-Id missing or unsafe: ${String(requestId).slice(0, 40)}`);
  }
  const outcome = judge(res, judged.json, before);
  const after = await databaseSnapshot(pool, merchant.merchant.id);
  lastSnapshot = after;
  const problems = [...judged.problems, ...outcome.problems];
  if (outcome.created) {
    accepted.set(outcome.created.instruction.transactionId, outcome.created);
    problems.push(...(await creationProblems(before, after, outcome.created)));
  } else {
    problems.push(
      ...snapshotChanges(before, after).map((c) => `database changed by a request that created nothing: ${c}`),
    );
  }
  record(family, problems, request, `${res.status} ${res.text.slice(0, 200)}`);
}

/** A new payout must be exactly one payout row, two ledger legs and one event, reserved from the wallet. */
async function creationProblems(
  before: DatabaseSnapshot,
  after: DatabaseSnapshot,
  p: AcceptedPayout,
): Promise<string[]> {
  const problems: string[] = [];
  const expected = {
    payouts: before.payouts + 1,
    ledgerEntries: before.ledgerEntries + 2,
    payoutEvents: before.payoutEvents + 1,
    collections: before.collections,
    merchants: before.merchants,
    tokens: before.tokens,
    wallets: before.wallets,
    available: before.available - p.instruction.amountPaise,
    reserved: before.reserved + p.instruction.amountPaise,
  };
  for (const [key, value] of Object.entries(expected)) {
    const actual = after[key as keyof DatabaseSnapshot];
    if (actual !== value) problems.push(`accepted payout: ${key} ${String(actual)}, expected ${String(value)}`);
  }
  const { rows } = await pool.query<Record<string, string | null>>(
    `SELECT amount_paise::text AS amount, state::text AS state, beneficiary_account AS account, beneficiary_ifsc AS ifsc, ack_no
       FROM payouts WHERE merchant_id = $1 AND transaction_id = $2`,
    [merchant.merchant.id, p.instruction.transactionId],
  );
  const row = rows[0];
  const stored = row && {
    amount: row.amount,
    state: row.state,
    account: row.account,
    ifsc: row.ifsc,
    ack: row.ack_no,
  };
  const wanted = {
    amount: p.instruction.amountPaise.toString(),
    state: 'ACCEPTED',
    account: p.instruction.account,
    ifsc: p.instruction.ifsc,
    ack: p.ackNo,
  };
  if (JSON.stringify(stored) !== JSON.stringify(wanted)) {
    problems.push(`stored payout ${JSON.stringify(stored)} ≠ ${JSON.stringify(wanted)}`);
  }
  return problems;
}

/** A member of the answer as written (number literals keep their digits): `"x"` → x, 101.00 → 101.00. */
function rawMember(text: string, key: string): { text: string; quoted: boolean } | undefined {
  const match = new RegExp(`"${key}":("(?:[^"\\\\]|\\\\.)*"|[-0-9.eE+]+)`).exec(text);
  if (!match) return undefined;
  const literal = match[1]!;
  return literal.startsWith('"')
    ? { text: JSON.parse(literal) as string, quoted: true }
    : { text: literal, quoted: false };
}

const sameInstruction = (a: AcceptableInstruction, b: AcceptableInstruction) =>
  a.amountPaise === b.amountPaise && a.account === b.account && a.ifsc === b.ifsc && a.name === b.name;

/**
 * Judges the answer to a payout request with valid credentials and a JSON content type. `instruction` is
 * what the contract makes of the body, or undefined when the contract says it must be refused.
 */
function judgePayoutAnswer(
  mode: PayoutMode,
  members: Member[],
  instruction: AcceptableInstruction | undefined,
  res: WireResponse,
  json: Record<string, unknown> | null,
): Outcome {
  const problems: string[] = [];
  if (!json) return { problems };
  const isResult = res.status === 202 || res.status === 200 || (res.status === 400 && json.status === 'FAILED');
  const tx = rawMember(res.text, 'TransactionID');

  if (isResult) {
    const known = tx && accepted.get(tx.text);
    if (known) {
      if (json.Ack_no !== known.ackNo) problems.push('a replay answered with another Ack_no');
      if (!instruction) problems.push('a request the contract refuses was answered as a replay');
      else if (known.mode !== mode || !sameInstruction(instruction, known.instruction)) {
        problems.push('a replay with different details was not answered 409');
      }
      return { problems };
    }
    if (!instruction) problems.push('accepted a request the contract refuses');
    if (res.status !== 202)
      problems.push(`a new payout answered ${res.status} ${String(json.status)} (funds are ample)`);
    const echo = instruction ?? {
      transactionId: tx?.text ?? '',
      amountPaise: 0n,
      account: String(json.account),
      ifsc: typeof json.ifsc === 'string' ? json.ifsc : null,
      name: '',
    };
    const amount = rawMember(res.text, 'Amount');
    const numeric = mode === 'UPI';
    const expected = {
      error: false,
      status: 'PENDING',
      message: CONTRACT.pending,
      Bankriff: '',
      account: echo.account,
      ifsc: mode === 'IMPS' ? echo.ifsc : undefined,
      TransactionID: echo.transactionId,
      // UPI PENDING writes digits as JSON numbers, except a TransactionID with a leading zero.
      transactionIdQuoted: !numeric || /^0[0-9]/.test(echo.transactionId),
      Amount: instruction ? rupeesText(instruction.amountPaise) : amount?.text,
      amountQuoted: !numeric,
    };
    const actual = {
      error: json.error,
      status: json.status,
      message: json.message,
      Bankriff: json.Bankriff,
      account: json.account,
      ifsc: json.ifsc,
      TransactionID: tx?.text,
      transactionIdQuoted: tx?.quoted,
      Amount: amount?.text,
      amountQuoted: amount?.quoted,
    };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      problems.push(`result ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`);
    }
    if (typeof json.Ack_no !== 'string' || !/^[A-Z0-9]{12,20}$/.test(json.Ack_no)) problems.push('Ack_no malformed');
    if (!instruction || typeof json.Ack_no !== 'string') return { problems };
    return { problems, created: { mode, instruction, ackNo: json.Ack_no, members } };
  }

  if (res.status === 409) {
    const known = tx && accepted.get(tx.text);
    if (!known) problems.push('409 for a TransactionID the sweep never used');
    else if (instruction && known.mode === mode && sameInstruction(instruction, known.instruction)) {
      problems.push('409 for a replay with the same details');
    }
  }
  return { problems };
}

// --- Building requests

function credentialHeaders(h: Pick<HeaderRecipe, 'mid' | 'token' | 'nameCase' | 'garbage'>): [string, string][] {
  const name = (n: string) => (h.nameCase === 'lower' ? n.toLowerCase() : h.nameCase === 'upper' ? n.toUpperCase() : n);
  const values = (which: CredentialHeader, mine: string, theirs: string): string[] => {
    switch (which) {
      case 'valid':
        return [mine];
      case 'missing':
        return [];
      case 'empty':
        return [''];
      case 'doubled':
        return [mine, mine];
      case 'doubled-other':
        return [mine, theirs];
      case 'other-merchant':
        return [theirs];
      case 'garbage':
        return [h.garbage];
    }
  };
  return [
    ...values(h.mid, merchant.mid, other.mid).map((v): [string, string] => [name('MID'), v]),
    ...values(h.token, merchant.token, other.token).map((v): [string, string] => [name('Token'), v]),
  ];
}

const VALID_CREDENTIALS = { mid: 'valid', token: 'valid', nameCase: 'canonical', garbage: '' } as const;

/** The answer the contract requires for credentials that are not exactly the merchant's, once each. */
function credentialProblems(
  h: Pick<HeaderRecipe, 'mid' | 'token'>,
  res: WireResponse,
  json: Record<string, unknown> | null,
): string[] {
  if (h.mid === 'valid' && h.token === 'valid') return [];
  const absent = (c: CredentialHeader) => c === 'missing' || c === 'empty';
  if (absent(h.mid) || absent(h.token))
    return res.status === 401 ? [] : [`missing credentials answered ${res.status}, not 401`];
  if (res.status === 401) return [];
  if (res.status === 400 && json?.message === CONTRACT.invalidMid) return [];
  return [`credentials ${h.mid}/${h.token} answered ${res.status}, not 401 or 400 "${CONTRACT.invalidMid}"`];
}

function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Greatest bracket depth outside strings. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') deepest = Math.max(deepest, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return deepest;
}

function isJsonObjectText(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

const PAYOUT_PATH: Record<PayoutMode, string> = { IMPS: '/api/impspayout', UPI: '/api/payout' };

function payoutRequest(
  mode: PayoutMode,
  body: Buffer,
  headers: [string, string][] = credentialHeaders(VALID_CREDENTIALS),
): WireRequest {
  return {
    method: 'POST',
    path: PAYOUT_PATH[mode],
    headers: [...headers, ['Content-Type', 'application/json'], ['Content-Length', String(body.length)]],
    body,
  };
}

function sample<T>(arbitrary: fc.Arbitrary<T>, family: number, numRuns: number): T[] {
  return fc.sample(arbitrary, { seed: SEED + family, numRuns });
}

function expectNoViolations(family: string): void {
  const mine = violations.filter((v) => v.family === family);
  const byProblem = new Map<string, Violation[]>();
  for (const v of mine) {
    const kind = v.problem.replace(/\d+/g, 'N').slice(0, 90);
    byProblem.set(kind, [...(byProblem.get(kind) ?? []), v]);
  }
  const report = [...byProblem]
    .map(([kind, list]) => {
      const examples = list
        .slice(0, 3)
        .map((v) => `    → ${v.problem}\n      request: ${v.request}\n      answer:  ${v.answer}`)
        .join('\n');
      return `  ${list.length}× ${kind}\n${examples}`;
    })
    .join('\n');
  expect(mine.length, `${family}: ${mine.length} violations (seed ${SEED}):\n${report}`).toBe(0);
}

// --- The families

describe('bad-input sweep', () => {
  it(
    'when payout bodies are mangled (wrong types, boundaries, unicode, huge numbers, duplicate keys, deep nesting, broken bytes, sizes around 16 KiB), then every answer is the contract error or a correct result and nothing else changes',
    async () => {
      const family = 'payout bodies';
      for (const recipe of [...edgeBodyRecipes(), ...sample(bodyRecipe, 1, 600)]) {
        await sendMangledBody(family, recipe);
      }
      expectNoViolations(family);
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'when valid payouts are written every way the contract allows, then each is accepted with exact echoes, and replays answer the same payout',
    async () => {
      const family = 'valid variants';
      for (const recipe of sample(validRecipe, 2, 150)) await sendValidVariant(family, recipe);
      const replays = [...accepted.values()].slice(0, 100);
      for (const [i, p] of replays.entries()) await sendReplay('replays', p, i);
      expectNoViolations(family);
      expectNoViolations('replays');
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'when credentials, content types and other headers are missing, empty, doubled, swapped or garbage on every endpoint, then authentication comes first and every answer is the contract error or a correct result',
    async () => {
      const family = 'headers';
      for (const recipe of [...edgeHeaderRecipes(), ...sample(fc.tuple(headerRecipe, fc.nat(4)), 3, 300)]) {
        await sendHeaderCase(family, ...recipe);
      }
      expectNoViolations(family);
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'when the lookups get hostile queries (repeats, brackets, encodings, unicode, overlong digits), then each answers exactly as the contract says',
    async () => {
      const family = 'queries';
      for (const recipe of sample(queryRecipe, 4, 400)) await sendQueryCase(family, recipe);
      expectNoViolations(family);
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'when paths and methods are wrong or odd, then every answer is the contract error, and no operator or callback surface opens to a merchant',
    async () => {
      const family = 'routes';
      for (const recipe of [...edgeRouteRecipes(), ...sample(routeRecipe, 5, 200)]) await sendRouteCase(family, recipe);
      expectNoViolations(family);
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'when a request breaks HTTP itself (a header too large, a NUL in a header, conflicting lengths, an unknown method), then the answer is still a JSON error, and the process lives on',
    async () => {
      const family = 'protocol';
      const { mid, token } = merchant;
      const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
      const cases: { name: string; bytes: Buffer }[] = [
        {
          name: 'a 20 KiB Token header',
          bytes: Buffer.from(
            head([
              'GET /api/checkMainWallet?PayoutType=Main_Wallet_Balance HTTP/1.1',
              'Host: x',
              `MID: ${mid}`,
              `Token: ${'t'.repeat(20_480)}`,
            ]),
          ),
        },
        {
          name: 'a NUL byte in the MID header',
          bytes: Buffer.from(
            head([
              'GET /api/checkMainWallet?PayoutType=Main_Wallet_Balance HTTP/1.1',
              'Host: x',
              `MID: ${mid}\u0000`,
              `Token: ${token}`,
            ]),
          ),
        },
        {
          name: 'a header line without a colon',
          bytes: Buffer.from(head(['GET /api/checkMainWallet HTTP/1.1', 'Host: x', `MID ${mid}`, `Token: ${token}`])),
        },
        {
          name: 'Content-Length and Transfer-Encoding together',
          bytes: Buffer.from(
            head([
              'POST /api/payout HTTP/1.1',
              'Host: x',
              `MID: ${mid}`,
              `Token: ${token}`,
              'Content-Type: application/json',
              'Content-Length: 4',
              'Transfer-Encoding: chunked',
            ]) + '0\r\n\r\n',
          ),
        },
        {
          name: 'two different Content-Lengths',
          bytes: Buffer.from(
            head([
              'POST /api/payout HTTP/1.1',
              'Host: x',
              `MID: ${mid}`,
              `Token: ${token}`,
              'Content-Type: application/json',
              'Content-Length: 2',
              'Content-Length: 3',
            ]) + '{}',
          ),
        },
        {
          name: 'a Content-Length that is not a number',
          bytes: Buffer.from(
            head([
              'POST /api/payout HTTP/1.1',
              'Host: x',
              `MID: ${mid}`,
              `Token: ${token}`,
              'Content-Type: application/json',
              'Content-Length: abc',
            ]) + '{}',
          ),
        },
        {
          name: 'a chunk size that is not hexadecimal',
          bytes: Buffer.from(
            head([
              'POST /api/payout HTTP/1.1',
              'Host: x',
              `MID: ${mid}`,
              `Token: ${token}`,
              'Content-Type: application/json',
              'Transfer-Encoding: chunked',
            ]) + 'zz\r\n{}\r\n0\r\n\r\n',
          ),
        },
        {
          name: 'an unknown method',
          bytes: Buffer.from(head(['FOO /api/payout HTTP/1.1', 'Host: x', `MID: ${mid}`, `Token: ${token}`])),
        },
        { name: 'a request line of garbage', bytes: Buffer.from(head(['\u0001\u0002 garbage'])) },
        {
          name: 'a space in the request target',
          bytes: Buffer.from(head(['GET /api/check MainWallet HTTP/1.1', 'Host: x'])),
        },
      ];
      for (const c of cases) {
        tried.set(family, (tried.get(family) ?? 0) + 1);
        const before = await databaseSnapshot(pool, merchant.merchant.id);
        const answer = await sendRawBytes(api.current.port, c.bytes);
        const problems: string[] = [];
        let json: Record<string, unknown> | null = null;
        try {
          json = JSON.parse(answer.body) as Record<string, unknown>;
        } catch {
          problems.push(
            `answer is not JSON: ${JSON.stringify(answer.head.split('\r\n')[0] ?? '')} with body ${JSON.stringify(answer.body.slice(0, 60))}`,
          );
        }
        if (json) {
          if (json.error !== true || json.status_code !== answer.status || typeof json.message !== 'string') {
            problems.push(`not a contract error: ${answer.body.slice(0, 120)}`);
          }
        }
        if (answer.status === null || answer.status < 400 || answer.status >= 500)
          problems.push(`HTTP status ${String(answer.status)}`);
        problems.push(
          ...snapshotChanges(before, await databaseSnapshot(pool, merchant.merchant.id)).map(
            (d) => `database changed: ${d}`,
          ),
        );
        for (const problem of problems)
          violations.push({
            family,
            problem: `${c.name}: ${problem}`,
            request: c.name,
            answer: answer.head.split('\r\n')[0] ?? '',
          });
      }
      await expectStillServing();
      expectNoViolations(family);
    },
    SWEEP_TIMEOUT_MS,
  );

  it('when the sweep is over, then the process still answers a wallet lookup with the balance the database holds, and the other merchant was never touched', async () => {
    await expectStillServing();
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM payouts WHERE merchant_id = $1', [
      other.merchant.id,
    ]);
    expect(rows[0]!.n).toBe('0');
    const { rows: wallet } = await pool.query<{ available_paise: string }>(
      'SELECT available_paise FROM wallets WHERE merchant_id = $1',
      [other.merchant.id],
    );
    expect(wallet[0]!.available_paise).toBe('100000');
    expect(accepted.size, 'the sweep got some payouts accepted, so correct results were judged too').toBeGreaterThan(
      100,
    );
  });
});

async function expectStillServing(): Promise<void> {
  const res = await sendRequest(
    api.current.port,
    {
      method: 'GET',
      path: '/api/checkMainWallet?PayoutType=Main_Wallet_Balance',
      headers: credentialHeaders(VALID_CREDENTIALS),
    },
    agent,
  );
  const snapshot = await databaseSnapshot(pool, merchant.merchant.id);
  expect({ status: res.status, body: JSON.parse(res.text) as unknown }).toEqual({
    status: 200,
    body: {
      error: false,
      status_code: 200,
      status: 'Success',
      mainwallet: rupeesText(snapshot.available),
      message: 'Success.',
    },
  });
}

async function sendMangledBody(family: string, recipe: BodyRecipe): Promise<void> {
  const edited = editMembers(validMembers(recipe.mode, freshTransactionId()), recipe.edits);
  // Padding and a cut at the very end leave a whole JSON object: judge them as the members they send.
  const members = recipe.wrap.kind === 'pad' ? padMembers(edited, recipe.wrap.size) : edited;
  const wrap =
    recipe.wrap.kind === 'pad' || (recipe.wrap.kind === 'truncate' && recipe.wrap.at >= 1)
      ? { kind: 'none' as const }
      : recipe.wrap;
  const body = bodyBytes(members, wrap);
  const intact =
    wrap.kind === 'none' || wrap.kind === 'bom' || (wrap.kind === 'blanks' && /^[ \t\n\r]*$/.test(wrap.around));
  const instruction = intact ? acceptableInstruction(recipe.mode, members) : undefined;
  // Repeats conflict when their values differ, not their texts: `[]` and `[ ]` are one value (the parser
  // compares values, docs/api.md); a literal it cannot read is compared as written.
  const valueOf = (literal: string) => {
    try {
      return stringifyJson(parseJson(literal));
    } catch {
      return literal;
    }
  };
  const conflictingRepeat = members.some(([k, v], i) =>
    members.some(([k2, v2], j) => j !== i && k2 === k && valueOf(v2) !== valueOf(v)),
  );
  await exchange(family, payoutRequest(recipe.mode, body), (res, json) => {
    const outcome = judgePayoutAnswer(recipe.mode, members, instruction, res, json);
    const mustBe = (statuses: number[], why: string) => {
      if (!statuses.includes(res.status))
        outcome.problems.push(`${why}: answered ${res.status}, expected ${statuses.join(' or ')}`);
    };
    if (body.length > BODY_LIMIT) mustBe([413], 'body over 16 KiB');
    else if (wrap.kind === 'replace' && !isJsonObjectText(body)) mustBe([400], 'body not a JSON object');
    else if (!intact && wrap.kind !== 'replace') mustBe([400], `body broken (${wrap.kind})`);
    else if (intact && conflictingRepeat) mustBe([400], 'a member repeated with different values');
    else if (intact && nestingDepth(body.toString('utf8')) > 32) mustBe([400], 'nested deeper than 32 levels');
    return outcome;
  });
}

async function sendValidVariant(family: string, r: ValidRecipe): Promise<void> {
  const transactionId = r.transactionIdAs === 'leading-zeros' ? `00${freshTransactionId()}` : freshTransactionId();
  let members = validMembers(r.mode, transactionId).map(([k, v]): Member => {
    if (k === 'Amount') return [k, amountLiteral(r)];
    if (k === 'TransactionID')
      return [k, r.transactionIdAs === 'number' ? transactionId : JSON.stringify(transactionId)];
    if (k === 'Ifsc' && r.ifscLowerCase) return [k, '"hdfc0001234"'];
    return [k, v];
  });
  const optional = new Set(['Mobile', 'Email', 'Description', 'BankName']);
  if (r.optionalAs === 'absent') members = members.filter(([k]) => !optional.has(k));
  if (r.optionalAs === 'null' || r.optionalAs === 'empty') {
    members = members.map(([k, v]): Member => [k, optional.has(k) ? (r.optionalAs === 'null' ? 'null' : '""') : v]);
  }
  if (r.extra) members.push(r.extra);
  const body = bodyBytes(members, r.blanks ? { kind: 'blanks', around: '\n\t ' } : { kind: 'none' });
  const instruction = acceptableInstruction(r.mode, members);
  await exchange(family, payoutRequest(r.mode, body), (res, json) => {
    const outcome = judgePayoutAnswer(r.mode, members, instruction, res, json);
    if (!instruction) outcome.problems.push('the generator built a request the contract refuses (a bug in the sweep)');
    else if (res.status !== 202 || !outcome.created)
      outcome.problems.push(`a valid request answered ${res.status}, not 202 PENDING as a new payout`);
    return outcome;
  });
}

async function sendReplay(family: string, p: AcceptedPayout, i: number): Promise<void> {
  // The same request again; again with other contact details (not compared); then with another amount.
  const variants: { members: Member[]; conflict: boolean }[] = [
    { members: p.members, conflict: false },
    { members: editMembers(p.members, [{ kind: 'set', field: 'Mobile', literal: '"9123456789"' }]), conflict: false },
    {
      // One paisa less (or more, at the minimum): still a valid amount, so only the conflict can refuse it.
      members: editMembers(p.members, [
        {
          kind: 'set',
          field: 'Amount',
          literal: `"${rupeesText(p.instruction.amountPaise + (p.instruction.amountPaise > 100n ? -1n : 1n))}"`,
        },
      ]),
      conflict: true,
    },
  ];
  const { members, conflict } = variants[i % variants.length]!;
  const body = bodyBytes(members, { kind: 'none' });
  await exchange(family, payoutRequest(p.mode, body), (res, json) => {
    const outcome = judgePayoutAnswer(p.mode, members, acceptableInstruction(p.mode, members), res, json);
    // A payout written near the limit can grow past it with another Mobile: the limit answers before any replay.
    if (body.length > BODY_LIMIT) {
      if (res.status !== 413) outcome.problems.push(`a replay over 16 KiB answered ${res.status}, not 413`);
      return outcome;
    }
    if (conflict && res.status !== 409)
      outcome.problems.push(`a replay with another amount answered ${res.status}, not 409`);
    if (!conflict && (res.status !== 202 || json?.Ack_no !== p.ackNo)) {
      outcome.problems.push(`a replay answered ${res.status} ${String(json?.Ack_no)}, not 202 with Ack_no ${p.ackNo}`);
    }
    return outcome;
  });
}

const LOOKUP_PATH = {
  PAYOUT_STATUS: '/api/check_payout_status',
  PAYIN_STATUS: '/api/payin/status',
  WALLET: '/api/checkMainWallet',
} as const;

async function sendHeaderCase(family: string, recipe: HeaderRecipe, endpointIndex: number): Promise<void> {
  // The other merchant's MID and token together are valid credentials of their own: pair its MID with
  // this merchant's token instead, so the other merchant is never acted for.
  const h =
    recipe.mid === 'other-merchant' && recipe.token === 'other-merchant'
      ? { ...recipe, token: 'valid' as const }
      : recipe;
  const path = MERCHANT_PATHS[endpointIndex]!;
  const mode: PayoutMode | undefined = path === '/api/impspayout' ? 'IMPS' : path === '/api/payout' ? 'UPI' : undefined;
  const knownPayout = [...accepted.keys()][0];
  const query =
    path === LOOKUP_PATH.WALLET
      ? '?PayoutType=Main_Wallet_Balance'
      : path === LOOKUP_PATH.PAYIN_STATUS
        ? `?TransactionID=${collectionTransactionId}`
        : `?TransactionID=${knownPayout ?? '1'}`;
  const members = mode ? validMembers(mode, freshTransactionId()) : [];
  const body = mode ? bodyBytes(members, { kind: 'none' }) : undefined;
  const headers: [string, string][] = [
    ...credentialHeaders(h),
    ...h.contentType.map((v): [string, string] => ['Content-Type', v]),
    ...h.extra.map(([k, v]): [string, string] => [k, v]),
    ...(body ? [['Content-Length', String(body.length)] as [string, string]] : []),
  ];
  const request: WireRequest = {
    method: mode ? 'POST' : 'GET',
    path: mode ? path : path + query,
    headers,
    ...(body && { body }),
  };
  await exchange(family, request, (res, json) => {
    const problems = credentialProblems(h, res, json);
    const credentialsValid = h.mid === 'valid' && h.token === 'valid';
    if (!credentialsValid || !json) return { problems };
    if (!mode) {
      if (res.status !== 200) problems.push(`a valid lookup answered ${res.status}`);
      return { problems };
    }
    // Node keeps the first of repeated Content-Type headers, as does every HTTP server.
    const contentType = h.contentType[0] ?? '';
    // Repeated Content-Encoding headers are one list ("identity, deflate"): any real coding counts.
    const encoding = h.extra
      .filter(([k]) => k === 'Content-Encoding')
      .map(([, v]) => v)
      .find((v) => v !== 'identity');
    const outcome = judgePayoutAnswer(mode, members, acceptableInstruction(mode, members), res, json);
    if (!/^application\/json\s*(;.*)?$/i.test(contentType)) {
      if (res.status !== 415)
        outcome.problems.push(`Content-Type ${JSON.stringify(contentType)} answered ${res.status}, not 415`);
    } else if (encoding) {
      // The body is plain JSON although it claims to be compressed: it is not a readable JSON body.
      if (![400, 415].includes(res.status))
        outcome.problems.push(`a body that is not ${encoding} answered ${res.status}, not 400 or 415`);
    } else if (/charset=(?!utf-8)/i.test(contentType)) {
      // Another charset may be refused (415) or read as UTF-8; either is within the contract.
    } else if (res.status !== 202) {
      outcome.problems.push(`a valid payout with valid credentials answered ${res.status}`);
    }
    return outcome;
  });
}

function queryValue(endpoint: QueryRecipe['endpoint'], name: string, v: QueryValue): string {
  if (v.kind === 'known') {
    if (name === 'PayoutType' || endpoint === 'WALLET') return 'Main_Wallet_Balance';
    return endpoint === 'PAYIN_STATUS' ? collectionTransactionId : ([...accepted.keys()][0] ?? '1');
  }
  if (v.kind === 'fresh') return `9${String(Math.abs(SEED)).slice(0, 8)}${++transactionCounter}`;
  return v.encode ? percentEncode(v.text) : v.text;
}

async function sendQueryCase(family: string, q: QueryRecipe): Promise<void> {
  const pairs = q.params.map(([name, v]) => `${name}=${queryValue(q.endpoint, name, v)}`);
  const qs = pairs.join('&');
  const path = LOOKUP_PATH[q.endpoint] + (qs ? `?${qs}` : '');
  const parsed = querystring.parse(qs);
  await exchange(
    family,
    { method: 'GET', path, headers: credentialHeaders(VALID_CREDENTIALS) },
    (res, json, before) => {
      const problems: string[] = [];
      if (!json) return { problems };
      const expectAnswer = (status: number, body: Record<string, unknown>) => {
        const actual = Object.fromEntries(Object.keys(body).map((k) => [k, json[k]]));
        if (res.status !== status || JSON.stringify(actual) !== JSON.stringify(body)) {
          problems.push(`answered ${res.status} ${JSON.stringify(actual)}, expected ${status} ${JSON.stringify(body)}`);
        }
      };
      if (q.endpoint === 'WALLET') {
        if (parsed.PayoutType === 'Main_Wallet_Balance') {
          expectAnswer(200, {
            error: false,
            status: 'Success',
            mainwallet: rupeesText(before.available),
            message: 'Success.',
          });
        } else {
          expectAnswer(400, { error: true, status: 'BAD REQUEST', message: CONTRACT.badPayoutType });
        }
        return { problems };
      }
      const id = parsed.TransactionID;
      if (typeof id !== 'string' || !/^[0-9]{1,30}$/.test(id)) {
        expectAnswer(422, { error: true, status: 'VALIDATION ERROR' });
        const fields = Array.isArray(json.errors) ? (json.errors as { field?: unknown }[]).map((e) => e.field) : [];
        if (res.status === 422 && JSON.stringify(fields) !== '["TransactionID"]')
          problems.push(`422 naming ${JSON.stringify(fields)}`);
        return { problems };
      }
      const payout = q.endpoint === 'PAYOUT_STATUS' ? accepted.get(id) : undefined;
      if (payout) {
        expectAnswer(200, {
          error: false,
          status: 'Pending',
          Amount: rupeesText(payout.instruction.amountPaise),
          Ack_no: payout.ackNo,
          TransactionID: id,
          mode: payout.mode,
          account: payout.instruction.account,
        });
      } else if (q.endpoint === 'PAYIN_STATUS' && id === collectionTransactionId) {
        expectAnswer(200, {
          error: false,
          status: 'SUCCESS',
          Amount: '123.45',
          TransactionID: id,
          Bankriff: '401234567890',
        });
      } else {
        expectAnswer(404, { error: true, status: 'NOT FOUND', message: CONTRACT.notFound, TransactionID: id });
      }
      return { problems };
    },
  );
}

async function sendRouteCase(family: string, r: RouteRecipe): Promise<void> {
  await exchange(family, { method: r.method, path: r.path, headers: credentialHeaders(VALID_CREDENTIALS) }, (res) => {
    const problems: string[] = [];
    const bare = r.path.split('?')[0]!;
    if (
      (bare.toLowerCase().startsWith('/admin') || bare.toLowerCase().startsWith('/api/callbacks')) &&
      res.status < 300
    ) {
      problems.push(`an operator or callback path answered ${res.status} to a merchant's credentials`);
    }
    const allowed = bare === '/api/impspayout' || bare === '/api/payout' ? ['POST'] : ['GET', 'HEAD'];
    if (MERCHANT_PATHS.includes(bare) && !allowed.includes(r.method) && res.status !== 405) {
      problems.push(`${r.method} on ${bare} answered ${res.status}, not 405`);
    }
    if (res.status >= 200 && res.status < 300 && MERCHANT_PATHS.includes(bare)) {
      problems.push(`a request without body or query succeeded: ${res.status}`);
    }
    return { problems };
  });
}
