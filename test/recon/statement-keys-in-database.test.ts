import { afterAll, describe, expect, it } from 'vitest';
import { settleSuccess } from '@payout/db';
import { matchStatement, type BookPayout, type MatchableLine } from '@payout/recon';
import { previewStatement } from '@payout/use-cases';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday } from './statement-support.js';

// Matching in the database (docs/reconciliation.md, "Memory") decides which key each line takes as the
// matcher over lines in memory does, line after line: here a line without our reference found by its UTR
// takes the payout's key before a later line names the payout by our reference — which is then a
// duplicate — and a line whose bank's reference is an Ack_no takes that key under its own name, before it is
// found by its UTR. The database's report is the in-memory matcher's on the same books.

const prisma = testPrisma();
afterAll(async () => {
  await prisma.$disconnect();
});

describe('keys taken in the statement’s order, matched in the database', () => {
  it('when a line found by its UTR comes before a line naming the same payout, then the later one is a duplicate, as in memory', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const today = istToday();
    const paid = await payoutAtTheRail(prisma, merchant, { amountPaise: 41_001n });
    const other = await payoutAtTheRail(prisma, merchant, { amountPaise: 41_002n });
    const utr = `${Date.now()}`.slice(-12);
    const otherUtr = `${Number(utr) + 1}`.padStart(12, '0');
    await settleSuccess(prisma, paid.id, utr, { reason: 'test: paid', actor: 'test' });
    await settleSuccess(prisma, other.id, otherUtr, { reason: 'test: paid', actor: 'test' });

    const lines: MatchableLine[] = [
      // Known only by its UTR: it is `paid`'s debit, and takes its key.
      {
        lineNumber: 2,
        reference: `BANKREF${utr}`,
        withoutOurReference: true,
        utr,
        amountPaise: 41_001n,
        type: 'DEBIT',
        valueDate: today,
      },
      // Names `paid` by our reference after that: a second line for the same payout.
      { lineNumber: 3, reference: paid.ackNo, utr, amountPaise: 41_001n, type: 'DEBIT', valueDate: today },
      // The bank's reference of this one is `other`'s Ack_no, and it carries no reference of ours.
      {
        lineNumber: 4,
        reference: other.ackNo,
        withoutOurReference: true,
        utr: otherUtr,
        amountPaise: 41_002n,
        type: 'DEBIT',
        valueDate: today,
      },
      // Our reference for `other`, after its key was taken by the line before.
      { lineNumber: 5, reference: other.ackNo, utr: otherUtr, amountPaise: 41_002n, type: 'DEBIT', valueDate: today },
    ];
    const report = await previewStatement(prisma, {
      lines,
      valueDates: [today],
      fileDigest: 'e'.repeat(64),
      fileName: 'keys.csv',
      today,
    });

    const book = (payout: typeof paid, bankReference: string): BookPayout => ({
      id: payout.id,
      ackNo: payout.ackNo,
      state: 'SUCCESS',
      amountPaise: payout.amountPaise,
      bankReference,
      settledOn: today,
      reversedOn: null,
      sentOn: today,
      beneficiaryName: 'Asha Kumar',
      batch: null,
    });
    const inMemory = matchStatement(lines, [today], [book(paid, utr), book(other, otherUtr)], { today });
    const ours = new Set([paid.ackNo, other.ackNo, `BANKREF${utr}`]);
    const mine = (breaks: { kind: string; reference: string }[]) =>
      breaks.filter((b) => ours.has(b.reference)).map((b) => `${b.kind} ${b.reference}`);

    expect(mine(report.breaks)).toEqual(inMemory.filter((i) => !i.resolved).map((i) => `${i.class} ${i.reference}`));
    // Line 4 took `other`'s key as its own name, so finding `other` by its UTR found the key taken: a
    // duplicate, which pays nothing; line 5 is a duplicate too, and `other` is missing at the bank.
    expect(mine(report.breaks)).toEqual([
      `duplicate_line ${paid.ackNo}`,
      `duplicate_line ${other.ackNo}`,
      `duplicate_line ${other.ackNo}`,
      `success_here_missing_at_bank ${other.ackNo}`,
    ]);
    expect(inMemory.filter((i) => i.class === 'matched').map((i) => i.reference)).toEqual([paid.ackNo]);
    expect(report.counts.matched).toBeGreaterThanOrEqual(1);
  });
});
