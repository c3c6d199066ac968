import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { renderMt940 } from '@payout/recon';
import { useApi } from '../support/api.js';
import { statementApplied } from '../support/approvals.js';
import { testPrisma } from '../support/database.js';
import { statementFile } from './statement-support.js';

// A statement's number must follow the last one stored for its account (docs/reconciliation-formats.md,
// "The file as a whole"): a day that never arrived refuses the next file whole, a day read again is only
// noted, and the missing day, once read, lets the later one through.

const api = useApi();
const prisma = testPrisma();
afterAll(() => prisma.$disconnect());

// An account of this run alone, so no other test's statements count for it.
const account = `ACCT${randomInt(1e9, 1e10)}`;

/** The account's MT940 statement number `sequence`: a day with one bank charge, balances that add up. */
function statementOf(sequence: number): string {
  const opening = 10_000_000n - BigInt(sequence) * 590n;
  return renderMt940({
    id: `STMT${sequence}`,
    account,
    sequence,
    statementDate: `2026-01-${String(sequence).padStart(2, '0')}`,
    currency: 'INR',
    openingBalancePaise: opening,
    closingBalancePaise: opening - 590n,
    entries: [
      {
        valueDate: `2026-01-${String(sequence).padStart(2, '0')}`,
        type: 'DEBIT',
        amountPaise: 590n,
        narration: 'CHARGES FOR IMPS TRANSACTIONS',
        class: 'bank_charge',
      },
    ],
  });
}

async function reconcile(sequence: number) {
  const path = await statementFile(statementOf(sequence), `statement-${sequence}.sta`);
  // Only an applied run is stored, and with it the statement number the next file must follow.
  return statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);
}

const runsOfAccount = () => prisma.statementRun.count({ where: { account } });

describe('statement numbers', () => {
  it('when a day is missing, then the next file is refused whole until the missing day is read; a day read again is noted', async () => {
    expect((await reconcile(3)).status).toBe(0);
    expect(await runsOfAccount()).toBe(1);

    const gap = await reconcile(5);
    expect(gap.status).toBe(2);
    expect(gap.stderr).toContain('missing statement 4');
    expect(await runsOfAccount()).toBe(1);

    const again = await reconcile(3);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      notes: expect.arrayContaining([expect.stringContaining('a statement read again')]) as string[],
    });

    expect((await reconcile(4)).status).toBe(0);
    expect((await reconcile(5)).status).toBe(0);
    const stored = await prisma.statementRun.findMany({
      where: { account },
      orderBy: { id: 'asc' },
      select: { statementSequence: true },
    });
    expect(stored.map((r) => r.statementSequence)).toEqual([3, 3, 4, 5]);
  });
});
