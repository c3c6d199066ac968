import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, listOperatorActions } from '@payout/db';
import { createAdminClient, EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from '@payout/cli';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, useApi } from '../support/api.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { unauthorizedBody } from '../api/contract-expectations.js';
import { freshSecondFactorCode, personWithKey } from '../support/people.js';

// A merchant's IP allow-list is changed only on a second person's approval (docs/operations.md,
// "Approvals"; docs/api.md, "IP allow-list"), whether asked on the console's merchant page or through
// POST /admin/merchants/:mid/ip-allowlist; the approver sees the list before and after.

const db = testPrisma();
const api = useApi();
let ravi: ConsolePerson; // an operator: asks
let kiran: ConsolePerson; // an approver
let sunita: ConsolePerson; // support: reads only

beforeAll(async () => {
  const url = api.current.adminUrl;
  ravi = await signedInPerson(url, 'operator');
  kiran = await signedInPerson(url, 'approver');
  sunita = await signedInPerson(url, 'support');
});
afterAll(() => db.$disconnect());

const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';
const allowlistOf = async (merchantId: number) =>
  (await db.merchant.findUniqueOrThrow({ where: { id: merchantId } })).ipAllowlist;

function askAsJson(person: ConsolePerson, mid: string, body: unknown) {
  return fetch(`${api.current.adminUrl}/admin/merchants/${mid}/ip-allowlist`, {
    method: 'POST',
    headers: { Cookie: person.cookie, 'X-CSRF-Token': person.csrf, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('IP allow-list requests', () => {
  it('when an operator asks on the merchant page, then nothing changes until another approver approves, and the maker cannot', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const page = await ravi.page(`/console/merchants/${merchant.mid}`);
    expect(page.html).toContain('No allow-list: the tokens work from any address.');
    expect(page.html).toContain(`/console/merchants/${merchant.mid}/ip-allowlist`);

    const asked = await ravi.post(`/console/merchants/${merchant.mid}/ip-allowlist`, {
      cidrs: '203.0.113.0/24\n2001:DB8:5::/48',
      why: 'merchant moved to a new data centre',
    });

    expect(asked.status, asked.html).toBe(303);
    const path = asked.location!;
    expect(await allowlistOf(merchant.merchant.id)).toEqual([]);
    const request = await kiran.page(path);
    expect(request.html).toContain('203.0.113.0/24, 2001:db8:5::/48');
    expect(request.html).toContain('any address');
    expect((await ravi.post(`${path}/approve`, { note: 'mine' })).status).toBe(403);
    expect(await allowlistOf(merchant.merchant.id)).toEqual([]);
    // Still no restriction: the merchant's token works from here.
    expect((await call(api.current, WALLET, { merchant })).status).toBe(200);

    expect((await kiran.post(`${path}/approve`, { note: 'called the merchant back' })).status).toBe(303);

    expect(await allowlistOf(merchant.merchant.id)).toEqual(['203.0.113.0/24', '2001:db8:5::/48']);
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    expect(audit.find((a) => a.action === 'merchant.ip-allowlist')).toMatchObject({
      actor: `console:${kiran.username}`,
      detail: { before: [], after: ['203.0.113.0/24', '2001:db8:5::/48'], requestedBy: ravi.username },
    });
  });

  it('when asked through the admin JSON API, then 202 with the request and its before and after; approved, the token works only inside', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    await db.merchant.update({ where: { id: merchant.merchant.id }, data: { ipAllowlist: ['198.51.100.0/24'] } });

    const res = await askAsJson(ravi, merchant.mid, { cidrs: ['127.0.0.1', '::1'], why: 'tests from here' });

    expect(res.status).toBe(202);
    const body = (await res.json()) as { approval: { id: string; state: string; preview: Record<string, unknown> } };
    expect(body).toMatchObject({ error: false, status_code: 202, status: 'OK' });
    expect(body.approval).toMatchObject({
      action: 'merchant.ip-allowlist',
      state: 'REQUESTED',
      maker: ravi.username,
      preview: {
        before: ['198.51.100.0/24'],
        after: ['127.0.0.1/32', '::1/128'],
        added: ['127.0.0.1/32', '::1/128'],
        removed: ['198.51.100.0/24'],
      },
    });
    // Until approved, the old list stands: from here the token is refused like a wrong one.
    const refused = await call(api.current, WALLET, { merchant });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual(unauthorizedBody);

    const approved = await fetch(`${api.current.adminUrl}/admin/approvals/${body.approval.id}/approve`, {
      method: 'POST',
      headers: { Cookie: kiran.cookie, 'X-CSRF-Token': kiran.csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: await freshSecondFactorCode(kiran.username) }),
    });
    expect(approved.status).toBe(200);
    expect(await allowlistOf(merchant.merchant.id)).toEqual(['127.0.0.1/32', '::1/128']);
  });

  it('when the list is not CIDRs, the reason is missing, the MID unknown or the role support, then a clear refusal and nothing is asked', async () => {
    const merchant = await makeMerchant(db);
    const requests = () => db.approvalRequest.count({ where: { merchantId: merchant.merchant.id } });

    const bad = await askAsJson(ravi, merchant.mid, { cidrs: ['10.0.0.0/33', 'example.com'], why: 'x' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      status: 'VALIDATION ERROR',
      errors: [
        { field: 'cidrs', message: '"10.0.0.0/33": the prefix length must be 0 to 32' },
        { field: 'cidrs', message: '"example.com" is not an IPv4 or IPv6 CIDR' },
      ],
    });
    expect((await askAsJson(ravi, merchant.mid, { cidrs: ['10.0.0.0/8'] })).status).toBe(422);
    expect((await askAsJson(ravi, merchant.mid, { cidrs: '10.0.0.0/8', why: 'x' })).status).toBe(422);
    expect((await askAsJson(ravi, merchant.mid, { cidrs: [], why: 'already empty' })).status).toBe(409);
    expect((await askAsJson(ravi, 'NOSUCHMERCHANT1', { cidrs: ['10.0.0.0/8'], why: 'x' })).status).toBe(404);
    expect((await askAsJson(sunita, merchant.mid, { cidrs: ['10.0.0.0/8'], why: 'x' })).status).toBe(403);
    const noCsrf = await fetch(`${api.current.adminUrl}/admin/merchants/${merchant.mid}/ip-allowlist`, {
      method: 'POST',
      headers: { Cookie: ravi.cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cidrs: ['10.0.0.0/8'], why: 'x' }),
    });
    expect(noCsrf.status).toBe(403);
    const badForm = await ravi.post(`/console/merchants/${merchant.mid}/ip-allowlist`, {
      cidrs: '10.0.0.300',
      why: 'typo',
    });
    expect(badForm.status).toBe(422);
    expect(badForm.html).toContain('10.0.0.300');
    expect((await sunita.page(`/console/merchants/${merchant.mid}/ip-allowlist`)).status).toBe(403);

    expect(await requests()).toBe(0);
    expect(await allowlistOf(merchant.merchant.id)).toEqual([]);
  });
});

/** `pnpm cli …` in this process against the admin listener, with `credential` as its person's. */
async function cli(argv: string[], credential?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('this command does not use the queue');
    },
    openAdmin: () => createAdminClient({ url: api.current.adminUrl, ...(credential && { credential }) }),
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('pnpm cli merchant allowlist', () => {
  it("when an operator asks with their own key, then the request is theirs and only another approver's key applies it", async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const omar = await personWithKey('operator');
    const kavya = await personWithKey('approver');

    const asked = await cli(
      [
        'merchant',
        'allowlist',
        '--mid',
        merchant.mid,
        '--cidr',
        '203.0.113.0/24',
        '--cidr',
        '2001:db8:5::/48',
        '--why',
        'merchant moved data centre',
        '--json',
      ],
      omar.key,
    );

    expect(asked.status, asked.stderr).toBe(EXIT_OK);
    const request = JSON.parse(asked.stdout) as { approvalId: string; maker: string; preview: Record<string, unknown> };
    expect(request).toMatchObject({
      maker: omar.username,
      preview: { before: [], after: ['203.0.113.0/24', '2001:db8:5::/48'] },
    });
    expect(await allowlistOf(merchant.merchant.id)).toEqual([]);
    const approve = async (person: { username: string; key: string }) =>
      fetch(`${api.current.adminUrl}/admin/approvals/${request.approvalId}/approve`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${person.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: await freshSecondFactorCode(person.username) }),
      });
    expect((await approve(omar)).status).toBe(403);
    expect(await allowlistOf(merchant.merchant.id)).toEqual([]);

    expect((await approve(kavya)).status).toBe(200);

    expect(await allowlistOf(merchant.merchant.id)).toEqual(['203.0.113.0/24', '2001:db8:5::/48']);
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    expect(audit.map((a) => [a.action, a.actor])).toEqual(
      expect.arrayContaining([
        ['approval.request', `cli:${omar.username}`],
        ['merchant.ip-allowlist', `cli:${kavya.username}`],
      ]),
    );
    // The merchant's token now works only from those networks; this test runs on loopback.
    const refused = await call(api.current, WALLET, { merchant });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual(unauthorizedBody);
  });

  it('when a support user asks with their key, then 403 and nothing is asked', async () => {
    const merchant = await makeMerchant(db);
    const sam = await personWithKey('support');
    const refused = await cli(
      ['merchant', 'allowlist', '--mid', merchant.mid, '--cidr', '203.0.113.0/24', '--why', 'x'],
      sam.key,
    );
    expect(refused.status).toBe(EXIT_FAILED);
    expect(refused.stderr).toMatch(/support/);
    expect(await db.approvalRequest.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
  });

  it('when run without a personal credential or with bad arguments, then it is refused and nothing is asked', async () => {
    const merchant = await makeMerchant(db);
    const ask = ['merchant', 'allowlist', '--mid', merchant.mid];

    const unsigned = await cli([...ask, '--cidr', '203.0.113.0/24', '--why', 'new egress']);
    expect(unsigned.status).toBe(EXIT_FAILED);
    expect(unsigned.stderr).toMatch(/acts as a person: sign in first/);
    expect((await cli([...ask, '--why', 'nothing to ask'], 'some-key')).status).toBe(EXIT_USAGE);
    expect((await cli([...ask, '--cidr', '10.0.0.0/8', '--clear', '--why', 'both'], 'some-key')).status).toBe(
      EXIT_USAGE,
    );
    expect((await cli([...ask, '--cidr', '10.0.0.0/8'], 'some-key')).status).toBe(EXIT_USAGE);

    const unknownKey = await cli([...ask, '--cidr', '203.0.113.0/24', '--why', 'new egress'], 'not-a-personal-key');
    expect(unknownKey.status).toBe(EXIT_FAILED);

    expect(await db.approvalRequest.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
  });
});
