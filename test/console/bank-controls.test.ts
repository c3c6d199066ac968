import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBankDowntime, saveBankHealth, type PrismaClient } from '@payout/db';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '@payout/cli';
import { adminOf, call, useApi } from '../support/api.js';
import { runCliAs } from '../support/approvals.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { bearer, personWithKey, type PersonWithKey } from '../support/people.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// An operator's hold on a sponsor bank and a merchant's routing (docs/operations.md, "Banks: pausing,
// draining, pinning"): no money moves, so one person does them, through every door — the console, the admin
// JSON API and the CLI — each audited; support may look, not act. Two banks are configured, `primary` and
// `secondary`; nothing here calls them.

const BANKS = JSON.stringify([
  { name: 'primary', baseUrl: 'http://127.0.0.1:4100', modes: ['IMPS', 'UPI'] },
  { name: 'secondary', baseUrl: 'http://127.0.0.1:4101', modes: ['UPI'], weight: 2 },
]);
const api = useApi({ BANKS });
let db: PrismaClient;
let operator: ConsolePerson;
let support: ConsolePerson;
let operatorKey: PersonWithKey;
let supportKey: PersonWithKey;
let merchant: TestMerchant;

beforeAll(async () => {
  db = testPrisma();
  operator = await signedInPerson(api.current.adminUrl, 'operator');
  support = await signedInPerson(api.current.adminUrl, 'support');
  operatorKey = await personWithKey('operator');
  supportKey = await personWithKey('support');
  merchant = await makeMerchant(db, { balance: '1000.00' });
});
afterAll(() => db.$disconnect());

const admin = () => adminOf(api.current);
const cli = (key: PersonWithKey, ...argv: string[]) => runCliAs(api.current.adminUrl, key.key, argv);
const holdOf = async (bank: string) => (await db.bankControl.findUnique({ where: { bank } }))?.state ?? 'ACTIVE';
const audited = (action: string, actor: string) =>
  db.operatorAction.findMany({ where: { action, actor }, orderBy: { id: 'asc' } });

describe('a bank on the day page', () => {
  it("when the day page is opened, then each configured bank shows its hold, routing's score per mode it serves and its open downtimes", async () => {
    await saveBankHealth(db, [
      {
        bank: 'primary',
        mode: 'IMPS',
        score: 0.97,
        paid: 97,
        refused: 1,
        technical: 2,
        timeouts: 0,
        eliminated: false,
      },
      {
        bank: 'secondary',
        mode: 'UPI',
        score: 0.12,
        paid: 6,
        refused: 0,
        technical: 40,
        timeouts: 4,
        eliminated: true,
      },
    ]);
    await openBankDowntime(db, { bank: 'secondary', mode: 'UPI', status: 'DOWN' });

    const page = await support.page('/console/today');
    expect(page.status).toBe(200);
    const banks = page.html.slice(page.html.indexOf('id="banks"'));
    expect(banks).toContain('Sponsor banks');
    expect(banks).toContain('IMPS: score 0.97 (97 paid, 1 refused, 2 technical, 0 timed out)');
    expect(banks).toContain('UPI: not scored yet');
    expect(banks).toContain('UPI: score 0.12, eliminated');
    expect(banks).toMatch(/UPI DOWN since/);
    // Support sees the actions, each disabled with the reason.
    expect(banks).toContain('Your role (support) may not do this.');
  });
});

describe('pausing, draining and resuming a bank', () => {
  it('when an operator pauses a bank from the console, then it is PAUSED with who and why, the audit log has it, and the day page says so; pausing it again changes nothing', async () => {
    const confirm = await operator.page('/console/banks/secondary/pause');
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Pause bank secondary');

    const paused = await operator.post('/console/banks/secondary/pause', { why: 'bank announced maintenance' });
    expect(paused).toMatchObject({ status: 303, location: '/console/today#banks' });
    expect(await db.bankControl.findUniqueOrThrow({ where: { bank: 'secondary' } })).toMatchObject({
      state: 'PAUSED',
      reason: 'bank announced maintenance',
      changedBy: `console:${operator.username}`,
    });
    const [entry] = await audited('bank.pause', `console:${operator.username}`);
    expect(entry).toMatchObject({
      reason: 'bank announced maintenance',
      detail: { bank: 'secondary', from: 'ACTIVE', to: 'PAUSED' },
    });
    const day = await operator.page('/console/today');
    expect(day.html).toContain('bank announced maintenance');
    expect(day.html).toContain('It is PAUSED now.');

    const again = await operator.post('/console/banks/secondary/pause', { why: 'once more' });
    expect(again.status).toBe(409);
    expect(await audited('bank.pause', `console:${operator.username}`)).toHaveLength(1);
  });

  it('when the form has no reason, names a bank not configured, or comes from support, then nothing changes', async () => {
    const before = await holdOf('primary');
    expect((await operator.post('/console/banks/primary/drain', { why: '' })).status).toBe(422);
    expect((await operator.post('/console/banks/nosuch/drain', { why: 'typo' })).status).toBe(404);
    expect((await operator.page('/console/banks/nosuch/drain')).status).toBe(404);
    expect((await support.page('/console/banks/primary/drain')).status).toBe(403);
    expect((await support.post('/console/banks/primary/drain', { why: 'support may not' })).status).toBe(403);
    expect(await holdOf('primary')).toBe(before);
    expect(await db.bankControl.count({ where: { bank: 'nosuch' } })).toBe(0);
  });

  it('when an operator drains and resumes a bank through the admin JSON API, then each is one audited change; support may list the banks but not act', async () => {
    const drained = await call(admin(), '/admin/banks/primary/drain', {
      headers: bearer(operatorKey),
      body: { why: 'shifting traffic off a slow bank' },
    });
    expect(drained.status, drained.text).toBe(200);
    expect(drained.json).toMatchObject({ bank: 'primary', state: 'DRAINING', from: 'ACTIVE', changed: true });
    expect(await holdOf('primary')).toBe('DRAINING');

    const listed = await call(admin(), '/admin/banks', { headers: bearer(supportKey) });
    expect(listed.status).toBe(200);
    expect(listed.json.banks).toEqual([
      expect.objectContaining({ bank: 'primary', modes: ['IMPS', 'UPI'], state: 'DRAINING', weight: 1 }),
      expect.objectContaining({
        bank: 'secondary',
        state: 'PAUSED',
        downtimes: [expect.objectContaining({ mode: 'UPI', status: 'DOWN' })],
      }),
    ]);
    const refused = await call(admin(), '/admin/banks/primary/resume', {
      headers: bearer(supportKey),
      body: { why: 'support may not' },
    });
    expect(refused.status).toBe(403);
    expect(await holdOf('primary')).toBe('DRAINING');
    const unknown = await call(admin(), '/admin/banks/nosuch/pause', { headers: bearer(operatorKey), body: {} });
    expect(unknown.status).toBe(404);

    const resumed = await call(admin(), '/admin/banks/primary/resume', { headers: bearer(operatorKey), body: {} });
    expect(resumed.json).toMatchObject({ state: 'ACTIVE', from: 'DRAINING', changed: true });
    const actor = `cli:${operatorKey.username}`;
    expect((await audited('bank.drain', actor)).map((e) => e.reason)).toEqual(['shifting traffic off a slow bank']);
    expect(await audited('bank.resume', actor)).toHaveLength(1);
  });

  it('when `pnpm cli bank` lists, resumes and pauses, then it acts as the person signed in; a bank not configured, or no reason, changes nothing', async () => {
    const list = await cli(operatorKey, 'bank', 'list', '--json');
    expect(list.status, list.stderr).toBe(EXIT_OK);
    expect((JSON.parse(list.stdout) as { banks: { bank: string }[] }).banks.map((b) => b.bank)).toEqual([
      'primary',
      'secondary',
    ]);
    const table = await cli(operatorKey, 'bank', 'list');
    expect(table.stdout).toContain('UPI DOWN since');

    const resumed = await cli(operatorKey, 'bank', 'resume', 'secondary', '--reason', 'maintenance over', '--json');
    expect(resumed.status, resumed.stderr).toBe(EXIT_OK);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      bank: 'secondary',
      state: 'ACTIVE',
      from: 'PAUSED',
      changed: true,
    });
    const [entry] = await audited('bank.resume', `cli:${operatorKey.username}`).then((all) => all.slice(-1));
    expect(entry).toMatchObject({
      reason: 'maintenance over',
      detail: { bank: 'secondary', from: 'PAUSED', to: 'ACTIVE' },
    });

    const unknown = await cli(operatorKey, 'bank', 'pause', 'nosuch', '--reason', 'typo');
    expect(unknown.status).toBe(EXIT_FAILED);
    expect(unknown.stderr).toContain('nosuch');
    expect((await cli(operatorKey, 'bank', 'pause', 'primary')).status).toBe(EXIT_USAGE);
    const bySupport = await cli(supportKey, 'bank', 'pause', 'primary', '--reason', 'support may not');
    expect(bySupport.status).toBe(EXIT_FAILED);
    expect(await holdOf('primary')).toBe('ACTIVE');
  });
});

describe("a merchant's routing", () => {
  it('when an operator pins the merchant to a bank and sets its hold window from the console, then both are stored, audited and shown on its page', async () => {
    const path = `/console/merchants/${merchant.mid}/routing`;
    const form = await operator.page(path);
    expect(form.status).toBe(200);
    expect(form.html).toContain('secondary (UPI)');

    const saved = await operator.post(path, {
      pinnedBank: 'secondary',
      downtimeHoldSeconds: '600',
      why: 'merchant asked for its own bank',
    });
    expect(saved).toMatchObject({ status: 303, location: `/console/merchants/${merchant.mid}#routing` });
    expect(await db.merchant.findUniqueOrThrow({ where: { id: merchant.merchant.id } })).toMatchObject({
      pinnedBank: 'secondary',
      downtimeHoldSeconds: 600,
    });
    const [entry] = await audited('merchant.routing', `console:${operator.username}`);
    expect(entry).toMatchObject({
      merchantId: merchant.merchant.id,
      detail: { pinnedBank: 'secondary', downtimeHoldSeconds: 600 },
    });
    const page = await support.page(`/console/merchants/${merchant.mid}`);
    expect(page.html).toContain('Pinned to</dt><dd>secondary');
    expect(page.html).toContain('10 min');

    expect((await operator.post(path, { pinnedBank: 'nosuch', downtimeHoldSeconds: '600', why: 'x' })).status).toBe(
      422,
    );
    expect((await operator.post(path, { pinnedBank: '', downtimeHoldSeconds: '0', why: 'x' })).status).toBe(422);
    expect((await support.post(path, { pinnedBank: '', downtimeHoldSeconds: '60', why: 'x' })).status).toBe(403);
    expect((await db.merchant.findUniqueOrThrow({ where: { id: merchant.merchant.id } })).pinnedBank).toBe('secondary');
  });

  it('when the admin JSON API and `pnpm cli merchant routing` change it, then a bank must be configured and the window within a day', async () => {
    const route = `/admin/merchants/${merchant.mid}/routing`;
    const unknown = await call(admin(), route, { headers: bearer(operatorKey), body: { pinnedBank: 'nosuch' } });
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain('pinnedBank must be a configured bank (primary, secondary)');
    const tooLong = await call(admin(), route, { headers: bearer(operatorKey), body: { downtimeHoldSeconds: 86_401 } });
    expect(tooLong.status).toBe(422);
    const pinned = await call(admin(), route, { headers: bearer(operatorKey), body: { pinnedBank: 'primary' } });
    expect(pinned.json).toMatchObject({ merchant: { pinnedBank: 'primary', downtimeHold: '600s' } });

    const unpinned = await cli(
      operatorKey,
      'merchant',
      'routing',
      '--mid',
      merchant.mid,
      '--unpin',
      '--hold',
      '45m',
      '--json',
    );
    expect(unpinned.status, unpinned.stderr).toBe(EXIT_OK);
    expect(JSON.parse(unpinned.stdout)).toMatchObject({ mid: merchant.mid, pinnedBank: 'none', downtimeHold: '2700s' });
    expect((await cli(operatorKey, 'merchant', 'routing', '--mid', merchant.mid)).status).toBe(EXIT_USAGE);
    expect((await cli(operatorKey, 'merchant', 'routing', '--mid', merchant.mid, '--hold', '2d')).status).toBe(
      EXIT_USAGE,
    );
    expect(await audited('merchant.routing', `cli:${operatorKey.username}`)).toHaveLength(2);
  });
});

describe("a payout's bank on its page", () => {
  it('when a payout was routed, then its page shows the bank and why routing chose it; a held one says it waits', async () => {
    const sent = await payoutAtTheRail(db, merchant, { mode: 'UPI' });
    const at = new Date('2026-11-28T06:30:00.000Z');
    await db.payout.update({
      where: { id: sent.id },
      data: {
        bank: 'secondary',
        routing: { bank: 'secondary', score: 0.91, reason: 'failover', at: at.toISOString() },
      },
    });
    const page = await support.page(`/console/payouts/${sent.ackNo}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('routed to secondary (failover, score 0.91)');

    const held = await payoutAtTheRail(db, merchant, { mode: 'IMPS' });
    await db.payout.update({ where: { id: held.id }, data: { state: 'ACCEPTED', heldSince: at } });
    const heldPage = await support.page(`/console/payouts/${held.ackNo}`);
    expect(heldPage.html).toContain('no bank serves IMPS');
    expect(heldPage.html).toContain('MP006 - Your transaction is held');
  });
});
