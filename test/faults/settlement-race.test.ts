import { afterAll, describe, expect, it } from 'vitest';
import {
  createPrismaClient,
  checkInvariants,
  settleFailure,
  settleSuccess,
  transitionPayout,
  type PrismaClient,
  type TransitionResult,
} from '@payout/db';
import type { PayoutState } from '@payout/domain';
import { call, impsBody } from '../support/api.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { STUCK_AFTER_MS, useFaultStack } from './fault-stack.js';

// Two verdicts arriving for one payout at the same moment — a late rail answer and an operator's
// resolution, or two workers hearing different things — on two connections. The database guard must let
// exactly one of them through, with exactly one ledger effect. The payouts are put in flight directly
// (no rail is involved), so the check is the books and reconcile rather than the bank's.
const stack = useFaultStack();
const second: PrismaClient[] = [];
afterAll(async () => {
  for (const db of second) await db.$disconnect();
});

const note = (reason: string) => ({ reason, actor: 'test:race' });
const utrOf = (i: number) => String(900_000_000_000 + i);

describe('settlement races', () => {
  it('when SUCCESS and FAILED, or the same verdict twice, settle one payout at once from two connections, then exactly one goes through and the books balance', async () => {
    const s = stack.current;
    const api = await s.startApi();
    const other = createPrismaClient({ url: s.postgres.databaseUrl, poolSize: 10, connectTimeoutMs: 2_000 });
    second.push(other);
    const merchant = await makeMerchant(s.prisma, { balance: '10000.00' });

    const count = 60;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: `${i + 1}.00` }) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    const { rows } = await s.pool.query<{ id: string; amount_paise: string }>(
      'SELECT id::text, amount_paise::text FROM payouts WHERE merchant_id = $1 ORDER BY id',
      [merchant.merchant.id],
    );

    // Every in-flight state a verdict can meet: claimed, waiting for the bank, unknown, under review.
    const states: Exclude<PayoutState, 'SUCCESS' | 'FAILED' | 'REVERSED' | 'ACCEPTED'>[] = [
      'SUBMITTING',
      'AWAITING_RAIL',
      'OUTCOME_UNKNOWN',
      'MANUAL_REVIEW',
    ];
    for (const [i, row] of rows.entries()) {
      const id = BigInt(row.id);
      const claimed = await transitionPayout(
        s.prisma,
        id,
        'SUBMITTING',
        { onlyFrom: ['ACCEPTED'], nextCheckAt: null },
        note('claim'),
      );
      expect(claimed.moved).toBe(true);
      const state = states[i % states.length]!;
      // MANUAL_REVIEW is reached from a payout the bank has (AWAITING_RAIL), as the driver gets there.
      const path =
        state === 'MANUAL_REVIEW' ? (['AWAITING_RAIL', state] as const) : state === 'SUBMITTING' ? [] : [state];
      for (const step of path) {
        const moved = await transitionPayout(
          s.prisma,
          id,
          step,
          { nextCheckAt: new Date(Date.now() + 60_000) },
          note(step),
        );
        expect(moved.moved).toBe(true);
      }
    }

    // A third of the payouts get SUCCESS against FAILED, a third SUCCESS twice, a third FAILED twice.
    const races = rows.map((row, i): Promise<[TransitionResult, TransitionResult]> => {
      const id = BigInt(row.id);
      const success = (db: PrismaClient) => settleSuccess(db, id, utrOf(i), note('rail: SUCCESS'));
      const failure = (db: PrismaClient) => settleFailure(db, id, 'DECLINED_BY_BENEFICIARY_BANK', note('rail: FAILED'));
      switch (i % 3) {
        case 0:
          return Promise.all([success(s.prisma), failure(other)]);
        case 1:
          return Promise.all([success(s.prisma), success(other)]);
        default:
          return Promise.all([failure(s.prisma), failure(other)]);
      }
    });
    const results = await Promise.all(races);
    expect(results.map(([a, b]) => Number(a.moved) + Number(b.moved))).toEqual(rows.map(() => 1));

    // The database agrees with whoever won.
    const { rows: settled } = await s.pool.query<{ status: string; amount_paise: string; legs: number }>(
      `SELECT p.status::text, p.amount_paise::text,
              (SELECT count(*)::int FROM ledger_entries l WHERE l.payout_id = p.id AND l.kind IN ('PAYOUT_SETTLE', 'PAYOUT_RELEASE')) AS legs
         FROM payouts p WHERE p.merchant_id = $1`,
      [merchant.merchant.id],
    );
    expect(settled.every((p) => p.status !== 'PENDING' && p.legs === 2)).toBe(true);
    const paidOut = settled.filter((p) => p.status === 'SUCCESS').reduce((sum, p) => sum + BigInt(p.amount_paise), 0n);
    expect(await expectBooksBalanced(s.pool, merchant.merchant.id)).toMatchObject({
      available: 1_000_000n - paidOut,
      reserved: 0n,
      ledgerPaidOut: paidOut,
    });
    const report = await checkInvariants(s.prisma, { stuckAfterMs: STUCK_AFTER_MS });
    expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
  });
});
