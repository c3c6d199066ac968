import { afterAll, describe, expect, it } from 'vitest';
import { reversePayout, settleSuccess } from '@payout/db';
import { reconcileStatement } from '@payout/use-cases';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday } from './statement-support.js';

// A payout reversed here on the rail's word credits the merchant back; only a RETURN line on the bank's
// statement shows the money really came back. Without one it is a break (docs/reconciliation.md).

const prisma = testPrisma();
afterAll(async () => {
  await prisma.$disconnect();
});

async function reversedOnTheRailsWord(amountPaise: bigint) {
  const merchant = await makeMerchant(prisma, { balance: '1000.00' });
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise });
  const utr = `${Date.now()}`.slice(-12).padStart(12, '7');
  await settleSuccess(prisma, payout.id, utr, { reason: 'test: rail said SUCCESS', actor: 'test' });
  const reversed = await reversePayout(prisma, payout.id, {
    source: 'rail',
    bankReference: utr,
    note: { reason: 'test: rail said REVERSED', actor: 'test' },
  });
  expect(reversed.moved).toBe(true);
  return { ...payout, utr };
}

function runOf(lines: Parameters<typeof reconcileStatement>[1]['lines']) {
  return reconcileStatement(prisma, {
    lines,
    valueDates: [istToday()],
    fileDigest: 'f'.repeat(64),
    fileName: 'today.csv',
    actor: 'operator:test',
    recordDiscrepancies: false,
  });
}

describe('a payout reversed here that the bank never returned', () => {
  it('when the statement of the day has no return for it, then it is a reversed_here_missing_at_bank break', async () => {
    const payout = await reversedOnTheRailsWord(10123n);

    const report = await runOf([]);

    const breaks = report.breaks.filter((b) => b.reference === payout.ackNo);
    expect(breaks.map((b) => b.kind).sort()).toEqual(['reversed_here_missing_at_bank', 'success_here_missing_at_bank']);
    expect(report.plannedActions.filter((a) => a.ackNo === payout.ackNo)).toEqual([]);
  });

  it('when the statement brings its money back, then no break is left for it', async () => {
    const payout = await reversedOnTheRailsWord(10124n);
    const today = istToday();

    const report = await runOf([
      { lineNumber: 2, reference: payout.ackNo, utr: payout.utr, amountPaise: 10124n, type: 'DEBIT', valueDate: today },
      {
        lineNumber: 3,
        reference: payout.ackNo,
        utr: payout.utr,
        amountPaise: 10124n,
        type: 'RETURN',
        valueDate: today,
      },
    ]);

    expect(report.breaks.filter((b) => b.reference === payout.ackNo)).toEqual([]);
  });
});
