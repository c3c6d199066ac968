import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { formatStatement, parseStatement } from '@payout/recon';
import { reconcileStatement } from '@payout/use-cases';
import { useApi } from '../support/api.js';
import { consoleSession } from '../support/console.js';
import { testPrisma } from '../support/database.js';

// The support console's statement breaks are paged (docs/reconciliation.md): one run of a bad file can
// leave thousands, and the page shows a fixed number with links to the next and previous pages.

const api = useApi();
let db: PrismaClient;
let cookie: string;

beforeAll(async () => {
  db = testPrisma();
  cookie = await consoleSession(api.current.adminUrl, 'kavya', 'support');
});
afterAll(async () => {
  await db.$disconnect();
});

async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${api.current.adminUrl}${path}`, { headers: { Cookie: cookie } });
  return { status: res.status, html: await res.text() };
}

const reference = (n: number) => `ZZBREAK${String(n).padStart(4, '0')}`;

describe('the statement breaks page', () => {
  it('when a run left more breaks than a page holds, then page 2 shows the rest with a link back and none further', async () => {
    // 60 lines nobody here issued: 60 unknown_reference breaks, on lines 2 to 61.
    const parsed = parseStatement(
      formatStatement(
        Array.from({ length: 60 }, (_, i) => ({
          reference: reference(i + 1),
          utr: `UTR${i + 1}`,
          amountPaise: 25000n,
          type: 'DEBIT' as const,
          valueDate: '2026-11-23',
        })),
      ),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    await reconcileStatement(db, {
      lines: parsed.lines,
      valueDates: parsed.valueDates,
      fileDigest: 'b'.repeat(64),
      fileName: 'bad-file.csv',
      actor: 'operator:asha',
      recordDiscrepancies: false,
      today: '2026-11-26',
    });

    const first = await page('/console/lists/statement-breaks');
    const second = await page('/console/lists/statement-breaks?page=2');

    expect(first.status).toBe(200);
    expect(first.html).toContain(reference(1));
    expect(first.html).toContain(reference(50));
    expect(first.html).not.toContain(reference(51));
    expect(first.html).toContain('href="/console/lists/statement-breaks?page=2"');
    expect(first.html).not.toContain('Previous page');

    expect(second.status).toBe(200);
    expect(second.html).not.toContain(reference(50));
    expect(second.html).toContain(reference(51));
    expect(second.html).toContain(`line 61: DEBIT ₹ 250.00, UTR UTR60, 2026-11-23`);
    expect(second.html).toContain('href="/console/lists/statement-breaks" rel="prev"');
    expect(second.html).not.toContain('Next page');
  });

  it('when the page asked for is past the last break, then it says so', async () => {
    const past = await page('/console/lists/statement-breaks?page=999');
    expect(past.status).toBe(200);
    expect(past.html).toContain('Page 999 is past the last break.');
  });
});
