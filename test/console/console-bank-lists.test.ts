import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDiscrepancy, type PrismaClient } from '@payout/db';
import { newAckNo } from '@payout/domain';
import { useApi } from '../support/api.js';
import { statementApplied } from '../support/approvals.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { consoleSession } from '../support/console.js';
import { cli, payoutAtTheRail, settle } from '../webhooks/webhook-fixtures.js';

// The bank-boundary lists of the support console: open discrepancies (the bank contradicted a settled
// payout) and the breaks statement runs left for a person, as a support user reads them.

const api = useApi();
const scratch = mkdtempSync(join(tmpdir(), 'console-statement-'));
let db: PrismaClient;
let cookie: string;

const admin = (path: string) => `${api.current.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  cookie = await consoleSession(api.current.adminUrl, 'meera', 'support');
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await db.$disconnect();
});

async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(admin(path), { headers: { Cookie: cookie } });
  return { status: res.status, html: await res.text() };
}

describe('console lists of the bank boundary', () => {
  it('when the bank said SUCCESS for a payout settled FAILED, then the discrepancy is listed with a link to the payout', async () => {
    const empty = await page('/console/lists/discrepancies');
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No discrepancy is open.');

    const merchant = await makeMerchant(db, { balance: '500.00' });
    const payout = await payoutAtTheRail(db, merchant, { mode: 'IMPS', amountPaise: 12345n });
    await settle(db, payout, 'FAILED');
    await recordDiscrepancy(db, {
      payoutId: payout.id,
      kind: 'SUCCESS_AFTER_FAILED',
      source: 'rail',
      railAnswer: { status: 'SUCCESS', utr: '412345678901' },
    });

    const listed = await page('/console/lists/discrepancies');
    expect(listed.status).toBe(200);
    expect(listed.html).toContain('SUCCESS_AFTER_FAILED');
    expect(listed.html).toContain(`href="/console/payouts/${payout.ackNo}"`);
    expect(listed.html).toContain('123.45');
    expect(listed.html).not.toContain('No discrepancy is open.');
  });

  it('when a statement run leaves a line nobody here issued, then the break is listed with what the bank said', async () => {
    const before = await page('/console/lists/statement-breaks');
    expect(before.html).toContain('No statement run has left a break.');

    const stranger = newAckNo();
    const file = join(scratch, 'statement.csv');
    writeFileSync(file, `reference,utr,amount,type,value_date\n${stranger},998877665544,250.00,DEBIT,2026-11-23\n`);
    // Only an applied run leaves breaks for a person: a report alone stores nothing.
    expect((await cli('recon', 'statement', '--file', file, '--json')).status).toBe(1);
    expect((await page('/console/lists/statement-breaks')).html).toContain('No statement run has left a break.');
    const run = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', file);
    expect(run.status).toBe(1);

    const listed = await page('/console/lists/statement-breaks');
    expect(listed.status).toBe(200);
    expect(listed.html).toContain('unknown_reference');
    expect(listed.html).toContain(stranger);
    expect(listed.html).toContain('line 2: DEBIT ₹ 250.00, UTR 998877665544, 2026-11-23');
  });
});
