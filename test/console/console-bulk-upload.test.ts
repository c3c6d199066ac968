import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, listOperatorActions, type PrismaClient } from '@payout/db';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { consoleSession } from '../support/console.js';
import { useStack } from '../support/stack.js';

// The console's bulk CSV upload (docs/console/bulk-upload.md), as a browser without JavaScript posts it:
// the CLI's reader and the bulk endpoint's path, a malformed file refused whole with its line number and
// nothing reserved, an accepted one audited.

const stack = useStack();
let db: PrismaClient;
let operator: string;
let support: string;

const admin = (path: string) => `${stack.current.api.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  operator = await consoleSession(stack.current.api.adminUrl, 'meera', 'operator');
  support = await consoleSession(stack.current.api.adminUrl, 'ravi', 'support');
});
afterAll(() => db.$disconnect());

async function page(path: string, cookie: string) {
  const res = await fetch(admin(path), { headers: { Cookie: cookie }, redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}

/** Opens the form, then posts it with the page's CSRF token. */
async function upload(mid: string, fields: Record<string, string>, cookie = operator) {
  const path = `/console/merchants/${mid}/bulk`;
  const form = await page(path, cookie);
  expect(form.status).toBe(200);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form.html)![1]!;
  const res = await fetch(admin(path), {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, html: await res.text() };
}

const HEADER = 'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name';
const uniqueId = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

describe('console bulk upload', () => {
  it('when an operator pastes a good file, then every line becomes a payout reserved from the wallet, and the upload is audited', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const base = uniqueId();
    const csv = [
      HEADER,
      `IMPS,${base}1,100.00,123456789012,HDFC0001234,,Asha Kumar`,
      `UPI,${base}2,50.25,,,asha.kumar@okhdfc,Asha Kumar`,
      `IMPS,${base}3,20.00,123456789013,HDFC0001234,,Ravi Rao`,
    ].join('\r\n');

    const done = await upload(merchant.mid, { csv, why: 'merchant mailed the March salaries file' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('3 payouts: 3 accepted, 0 failed, 0 refused');

    const payouts = await db.payout.findMany({ where: { merchantId: merchant.merchant.id }, orderBy: { id: 'asc' } });
    expect(payouts.map((p) => [p.transactionId, p.amountPaise])).toEqual([
      [`${base}1`, 10_000n],
      [`${base}2`, 5_025n],
      [`${base}3`, 2_000n],
    ]);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 100_000n - 17_025n });
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 5 });
    expect(audit.map((a) => [a.action, a.actor, a.reason])).toEqual([
      ['payout.bulk', 'console:meera', 'merchant mailed the March salaries file'],
    ]);
    expect(audit[0]!.detail).toMatchObject({ total: 3, accepted: 3, failed: 0, rejected: 0 });

    // The same file again is the same batch: nothing is paid twice.
    const again = await upload(merchant.mid, { csv, why: 'pressed twice' });
    expect(again.status).toBe(200);
    expect(await db.payout.count({ where: { merchantId: merchant.merchant.id } })).toBe(3);
  });

  it('when a line is malformed, then the whole file is refused with its line number and nothing is reserved', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const base = uniqueId();
    const csv = [
      HEADER,
      `IMPS,${base}1,100.00,123456789012,HDFC0001234,,Asha Kumar`,
      `IMPS,${base}2,1.234,123456789012,HDFC0001234,,Asha Kumar`,
      `UPI,${base}1,5.00,,,asha.kumar@okhdfc,Asha Kumar`,
    ].join('\n');

    const refused = await upload(merchant.mid, { csv, why: 'salaries' });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('file refused, nothing was reserved');
    expect(refused.html).toMatch(/line 3: [^\n<]*Amount/);
    expect(refused.html).toContain(`line 4: TransactionID ${base}1 is already on line 2`);
    expect(await db.payout.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 100_000n, reservedPaise: 0n });
    expect(await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 5 })).toEqual([]);

    const badHeader = await upload(merchant.mid, {
      csv: 'Mode,TransactionID,Amount,Colour\nIMPS,1,1.00,red',
      why: 'x',
    });
    expect(badHeader.status).toBe(422);
    expect(badHeader.html).toContain('line 1: unknown column Colour');
  });

  it('when a support user or a post without the CSRF token tries it, then nothing is submitted', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const csv = `${HEADER}\nIMPS,${uniqueId()},1.00,123456789012,HDFC0001234,,Asha Kumar`;
    expect((await page(`/console/merchants/${merchant.mid}/bulk`, support)).status).toBe(403);
    const forged = await fetch(admin(`/console/merchants/${merchant.mid}/bulk`), {
      method: 'POST',
      headers: { Cookie: operator, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csv, why: 'forged' }).toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(await db.payout.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
  });
});
