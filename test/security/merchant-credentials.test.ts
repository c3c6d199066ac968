import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchantToken, type MerchantToken } from '@payout/client';
import type { PrismaClient } from '@payout/db';
import { hashToken, tokenDisplayPrefix } from '@payout/domain';
import { EXIT_OK } from '@payout/cli';
import { call, useApi } from '../support/api.js';
import { fourEyes, runCliAs, type CliResult } from '../support/approvals.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';

// A merchant's token is made by the merchant and handed to nobody (docs/operations.md, "A merchant's token
// and webhook secret"): staff register only its digest, by one person's request and another's approval,
// and nothing staff see — the CLI's output, the admin API's answers, the console's pages, the audit log, the
// approval rows — ever carries it. Each test searches all of these for the very token.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
// Revocations reach every API process's credential cache within this.
process.env.AUTH_CACHE_TTL_MS = '200';
const api = useApi();
// Any authenticated look-up will do: a merchant just created has no wallet to show yet.
const PROBE = '/api/downtimes';
let db: PrismaClient;
let makerKey: string;
let approverKey: string;
let onlooker: ConsolePerson;

beforeAll(async () => {
  db = testPrisma();
  ({ makerKey, approverKey } = await fourEyes());
  onlooker = await signedInPerson(api.current.adminUrl, 'approver');
});
afterAll(() => db.$disconnect());

/** Everything a run of the CLI showed its person. */
const shown = (result: CliResult) => `${result.stdout}\n${result.stderr}`;

/** A money command asked for by the maker and approved by the approver, each through the CLI with their own key. */
async function askedAndApproved(...argv: string[]): Promise<{ asked: CliResult; approved: CliResult; id: string }> {
  const asked = await runCliAs(api.current.adminUrl, makerKey, [...argv, '--json']);
  expect(asked.status, asked.stderr).toBe(EXIT_OK);
  const id = (JSON.parse(asked.stdout) as { approvalId: string }).approvalId;
  const approved = await runCliAs(api.current.adminUrl, approverKey, ['approval', 'approve', '--id', id, '--json']);
  expect(approved.status, approved.stderr).toBe(EXIT_OK);
  return { asked, approved, id };
}

/** What staff could ever read of a merchant: its audit entries and approval requests, as stored. */
async function staffRecords(mid: string, approvalIds: string[]): Promise<string> {
  const merchant = await db.merchant.findUnique({ where: { mid } });
  const rows = [
    await db.operatorAction.findMany({ where: { merchantId: merchant?.id ?? -1 } }),
    await db.operatorAction.findMany({ where: { action: { startsWith: 'approval.' } } }),
    await db.approvalRequest.findMany({ where: { id: { in: approvalIds.map(BigInt) } } }),
  ];
  return JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

/** The console's pages a person reads about a merchant and a request, after the approval. */
async function consolePages(mid: string, approvalIds: string[]): Promise<string> {
  const paths = [
    `/console/merchants/${mid}`,
    '/console/approvals',
    ...approvalIds.map((id) => `/console/approvals/${id}`),
  ];
  const pages = await Promise.all(paths.map((path) => onlooker.page(path)));
  expect(pages.map((p) => p.status)).toEqual(paths.map(() => 200));
  return pages.map((p) => p.html).join('\n');
}

/** The token and its secret part (all but the prefix people see), each of which must appear nowhere. */
function secretParts(token: string): string[] {
  return [token, token.slice(10)];
}

function expectNowhere(text: string, token: string): void {
  for (const part of secretParts(token)) expect(text).not.toContain(part);
}

const works = async (mid: string, token: string) =>
  (await call(api.current, PROBE, { merchant: { mid, token } })).status === 200;

describe('a merchant makes its own token', () => {
  it('when payout-token runs, then it prints a new token with its prefix and SHA-256, in words and in JSON', async () => {
    const bin = ['--conditions=source', '--import', 'tsx', 'packages/client/src/new-token-command.ts'];
    const { stdout: json } = await run(process.execPath, [...bin, '--json'], { cwd: ROOT });
    const made = JSON.parse(json) as MerchantToken;
    expect(made.token).toMatch(/^pgt_[A-Za-z0-9_-]{43}$/);
    expect(made).toEqual({ token: made.token, prefix: tokenDisplayPrefix(made.token), sha256: hashToken(made.token) });

    const { stdout: words } = await run(process.execPath, bin, { cwd: ROOT });
    const token = /(pgt_[A-Za-z0-9_-]{43})/.exec(words)![1]!;
    expect(words).toContain(`prefix: ${tokenDisplayPrefix(token)}`);
    expect(words).toContain(`sha256: ${hashToken(token)}`);
    expect(token).not.toBe(made.token);
  });
});

describe('onboarding a merchant', () => {
  it('when one person asks with the merchant-made digest and another approves, then the merchant’s own token works and no staff output or record holds it', async () => {
    const made = await newMerchantToken();
    const mid = `ONB${Date.now().toString(36).toUpperCase()}`;
    const create = ['merchant', 'create', '--name', 'Onboarded Co', '--mid', mid];
    const digest = ['--token-digest', made.sha256, '--token-prefix', made.prefix];

    const asked = await runCliAs(api.current.adminUrl, makerKey, [...create, ...digest, '--json']);

    expect(asked.status, asked.stderr).toBe(EXIT_OK);
    const request = JSON.parse(asked.stdout) as {
      approvalId: string;
      action: string;
      state: string;
      preview: Record<string, unknown>;
    };
    expect(request).toMatchObject({
      action: 'merchant.create',
      state: 'REQUESTED',
      preview: { mid, name: 'Onboarded Co', tokenPrefix: made.prefix, tokenDigest: made.sha256 },
    });
    // Nothing exists until a second person approves.
    expect(await db.merchant.count({ where: { mid } })).toBe(0);
    expect(await works(mid, made.token)).toBe(false);

    const approved = await runCliAs(api.current.adminUrl, approverKey, [
      'approval',
      'approve',
      '--id',
      request.approvalId,
      '--json',
    ]);

    expect(approved.status, approved.stderr).toBe(EXIT_OK);
    expect(JSON.parse(approved.stdout)).toMatchObject({
      state: 'EXECUTED',
      outcome: { mid, tokenPrefix: made.prefix },
    });
    await eventually(() => works(mid, made.token), Boolean, { what: 'the merchant’s own token to work' });
    const stored = await db.merchantToken.findMany({ where: { merchant: { mid } } });
    expect(stored.map((t) => [t.tokenHash, t.tokenPrefix])).toEqual([[made.sha256, made.prefix]]);
    const table = await runCliAs(api.current.adminUrl, makerKey, ['approval', 'show', '--id', request.approvalId]);

    for (const text of [
      shown(asked),
      shown(approved),
      shown(table),
      await staffRecords(mid, [request.approvalId]),
      await consolePages(mid, [request.approvalId]),
    ]) {
      expectNowhere(text, made.token);
    }
    expect(await staffRecords(mid, [request.approvalId])).toContain(made.prefix);
  });

  it('when the digest is already registered, the MID taken or the digest malformed, then nothing is asked', async () => {
    const existing = await makeMerchant(db);
    const made = await newMerchantToken();
    const asks = [
      [
        '--name',
        'Copy',
        '--token-digest',
        hashToken(existing.token),
        '--token-prefix',
        tokenDisplayPrefix(existing.token),
      ],
      ['--name', 'Taken', '--mid', existing.mid, '--token-digest', made.sha256, '--token-prefix', made.prefix],
      ['--name', 'Typo', '--token-digest', made.sha256.slice(1), '--token-prefix', made.prefix],
      ['--name', 'The token itself', '--token-digest', made.token, '--token-prefix', made.prefix],
    ];
    const before = await db.approvalRequest.count();

    const results = await Promise.all(
      asks.map((argv) => runCliAs(api.current.adminUrl, makerKey, ['merchant', 'create', ...argv])),
    );

    expect(results.map((r) => r.status)).toEqual([1, 1, 2, 2]);
    expect(results[0]!.stderr).toMatch(/already registered/);
    expect(results[1]!.stderr).toMatch(/already taken/);
    expect(await db.approvalRequest.count()).toBe(before);
    for (const result of results) expectNowhere(shown(result), made.token);
  });

  it('when two requests for one MID are both approved, then the second fails and one merchant exists', async () => {
    const mid = `TWIN${Date.now().toString(36).toUpperCase()}`;
    const [first, second] = [await newMerchantToken(), await newMerchantToken()];
    const ask = (made: MerchantToken) =>
      runCliAs(api.current.adminUrl, makerKey, [
        'merchant',
        'create',
        '--name',
        'Twin',
        '--mid',
        mid,
        '--token-digest',
        made.sha256,
        '--token-prefix',
        made.prefix,
        '--json',
      ]);
    const ids = [await ask(first), await ask(second)].map(
      (r) => (JSON.parse(r.stdout) as { approvalId: string }).approvalId,
    );

    const decided = await Promise.all(
      ids.map((id) => runCliAs(api.current.adminUrl, approverKey, ['approval', 'approve', '--id', id, '--json'])),
    );

    expect(decided.map((d) => d.status).sort()).toEqual([0, 1]);
    expect(await db.merchant.count({ where: { mid } })).toBe(1);
    expect(await db.approvalRequest.count({ where: { id: { in: ids.map(BigInt) }, state: 'FAILED' } })).toBe(1);
  });
});

describe('a merchant that lost its token', () => {
  it('when staff register the token the merchant made, then it works, every other token is revoked, and no staff output or record holds it', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    // The merchant's original token, and one rotated from it that leaked.
    const rotated = await call(api.current, '/api/token/rotate', { merchant, body: {} });
    const leaked = String(rotated.json.token);
    const made = await newMerchantToken();

    const { asked, approved, id } = await askedAndApproved(
      'token',
      'reissue',
      '--mid',
      merchant.mid,
      '--token-digest',
      made.sha256,
      '--token-prefix',
      made.prefix,
      '--note',
      'merchant lost its keys',
    );

    expect(JSON.parse(asked.stdout)).toMatchObject({
      action: 'token.issue',
      preview: {
        summary: expect.stringContaining('which a leaked token cannot take') as string,
        revokes: [tokenDisplayPrefix(merchant.token), tokenDisplayPrefix(leaked)],
        activeTokensAfter: 1,
      },
    });
    expect(JSON.parse(approved.stdout)).toMatchObject({ state: 'EXECUTED', outcome: { prefix: made.prefix } });
    await eventually(
      async () => [
        await works(merchant.mid, made.token),
        await works(merchant.mid, merchant.token),
        await works(merchant.mid, leaked),
      ],
      (worked) => worked.join() === 'true,false,false',
      { what: 'only the merchant-made token to work' },
    );
    const active = await db.merchantToken.findMany({ where: { merchantId: merchant.merchant.id, revokedAt: null } });
    expect(active.map((t) => t.tokenHash)).toEqual([made.sha256]);

    for (const text of [
      shown(asked),
      shown(approved),
      await staffRecords(merchant.mid, [id]),
      await consolePages(merchant.mid, [id]),
    ]) {
      for (const token of [made.token, merchant.token, leaked]) expectNowhere(text, token);
    }
  });

  it('when the request is made from the console form, then it needs the digest and prefix, and the approval page shows no token', async () => {
    const merchant = await makeMerchant(db);
    const made = await newMerchantToken();
    const operator = await signedInPerson(api.current.adminUrl, 'operator');
    const form = `/console/merchants/${merchant.mid}/tokens/rotate`;

    const blank = await operator.post(form, { why: 'merchant lost its keys', tokenPrefix: '', tokenDigest: '' });
    // The token itself pasted where its digest goes: refused, and the page does not show it back.
    const pasted = await operator.post(form, {
      why: 'merchant lost its keys',
      tokenPrefix: made.prefix,
      tokenDigest: made.token,
    });
    const asked = await operator.post(form, {
      why: 'merchant lost its keys',
      tokenPrefix: made.prefix,
      tokenDigest: made.sha256,
    });

    expect(blank.status).toBe(422);
    expect(pasted.status).toBe(422);
    expectNowhere(pasted.html, made.token);
    expect(asked.status).toBe(303);
    const id = asked.location!.split('/').pop()!;
    const approved = await runCliAs(api.current.adminUrl, approverKey, ['approval', 'approve', '--id', id, '--json']);
    expect(approved.status, approved.stderr).toBe(EXIT_OK);
    await eventually(() => works(merchant.mid, made.token), Boolean, { what: 'the merchant-made token to work' });
    expectNowhere(`${shown(approved)}\n${await consolePages(merchant.mid, [id])}`, made.token);
  });
});
