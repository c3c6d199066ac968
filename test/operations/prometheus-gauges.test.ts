import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  countPayoutsPastExpectedTime,
  createPrismaClient,
  readOperationsGauges,
  type OperationsReading,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { testPrisma } from '../support/database.js';
import { PrivatePostgres } from '../support/private-postgres.js';
import { useStack } from '../support/stack.js';

// The numbers the alerts read from PostgreSQL (docs/operations.md, "Alerts: what each means and what to
// do"): what readOperationsGauges counts, and that the worker's /metrics publishes them with the result of
// its periodic check of the money invariants.

const prisma = testPrisma();
const stack = useStack();
afterAll(() => prisma.$disconnect());

/** Thrown to roll back a transaction whose rows only this test may see, carrying what was read in it. */
class RolledBack extends Error {
  constructor(
    readonly reading: OperationsReading,
    readonly overdue: { mode: string; payouts: number }[],
  ) {
    super('rolled back');
  }
}

let payoutCounter = 0;
async function insertPayout(
  tx: PrismaClientOrTransaction,
  merchant: TestMerchant,
  row: { mode: 'IMPS' | 'UPI'; state: string; ageSeconds: number },
): Promise<bigint> {
  payoutCounter += 1;
  const ackNo = `GAUGE${Date.now()}${payoutCounter}`.slice(0, 20);
  const ifsc = row.mode === 'IMPS' ? 'HDFC0001234' : null;
  const [inserted] = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO payouts (merchant_id, transaction_id, mode, amount_paise, ack_no, state, status,
                         beneficiary_account, beneficiary_ifsc, beneficiary_name, created_at)
    VALUES (${merchant.merchant.id}, ${String(Date.now()) + String(payoutCounter)}, ${row.mode}::payout_mode, 1000,
            ${ackNo}, ${row.state}::payout_state, 'PENDING', '123456789012', ${ifsc}, 'Asha Kumar',
            now() - make_interval(secs => ${row.ageSeconds}))
    RETURNING id`;
  return inserted!.id;
}

describe('the operations gauges', () => {
  it('when payouts, discrepancies, statement runs and webhooks are in the database, then each gauge counts what it should', async () => {
    const merchant = await makeMerchant(prisma);
    const HOUR = 60 * 60;
    const rolledBack = await prisma
      .$transaction(async (tx) => {
        // Past IMPS's schedule (one minute here) and still in flight: the one the stuck alert is about.
        const stuck = await insertPayout(tx, merchant, { mode: 'IMPS', state: 'SUBMITTING', ageSeconds: 3 * HOUR });
        // Old too, but in manual review or queued for balance: waiting on a person or the merchant, not stuck.
        await insertPayout(tx, merchant, { mode: 'IMPS', state: 'MANUAL_REVIEW', ageSeconds: 30 * 60 });
        await insertPayout(tx, merchant, { mode: 'UPI', state: 'QUEUED', ageSeconds: 3 * 24 * HOUR });
        // Young: within its schedule.
        await insertPayout(tx, merchant, { mode: 'UPI', state: 'AWAITING_RAIL', ageSeconds: 10 });

        await tx.$executeRaw`
          INSERT INTO discrepancies (kind, payout_id, source, note)
          VALUES ('FAILED_AFTER_SUCCESS', ${stuck}, 'rail', 'test')`;
        for (const breaks of [7, 3]) {
          await tx.$executeRaw`
            INSERT INTO statement_runs (file_digest, file_name, operator, applied, value_dates, lines, counts, breaks,
                                        started_at, effective_at)
            VALUES (repeat('a', 64), 'statement.csv', 'test', false, '2026-11-25', 10, '{}', ${breaks}, now(), now())`;
        }
        // A run with three breaks: one set aside (not ours), one waiting for the bank, one undecided: two are open.
        const [run] = await tx.$queryRaw<{ id: bigint }[]>`
          INSERT INTO statement_runs (file_digest, file_name, operator, applied, value_dates, lines, counts, breaks,
                                      break_list, started_at, effective_at)
          VALUES (repeat('b', 64), 'statement.csv', 'test', true, '2026-11-25', 10, '{}', 3,
                  '[{"kind":"unmatched_bank_debit","reference":"R1"},{"kind":"unmatched_bank_debit","reference":"R2"},
                    {"kind":"unmatched_bank_debit","reference":"R3"}]'::jsonb, now(), now())
          RETURNING id`;
        for (const [position, decision] of [
          [1, 'not_ours'],
          [2, 'needs_bank'],
        ] as const) {
          await tx.$executeRaw`
            INSERT INTO statement_break_decisions (run_id, position, break_kind, reference, decision, decided_by, note)
            VALUES (${run!.id}, ${position}, 'unmatched_bank_debit', ${`R${position}`},
                    ${decision}::statement_break_decision, 'console:test', 'test')`;
        }
        for (const breaks of [7, 3]) {
          await tx.$executeRaw`
            INSERT INTO statement_runs (file_digest, file_name, operator, applied, value_dates, lines, counts, breaks,
                                        started_at, effective_at)
            VALUES (repeat('a', 64), 'statement.csv', 'test', false, '2026-11-25', 10, '{}', ${breaks}, now(), now())`;
        }
        await tx.$executeRaw`
          INSERT INTO webhook_endpoints (merchant_id, url, signing_secret, secret_prefix, disabled_at, disabled_reason)
          VALUES (${merchant.merchant.id}, 'https://example.com/hooks', 'whsec_test', 'whsec_te', now(), 'test')`;
        for (const [status, attempts] of [
          ['PENDING', 2],
          ['PENDING', 0],
          ['HELD', 5],
        ] as const) {
          await tx.$executeRaw`
            INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, status, attempts, next_attempt_at, requested_by)
            VALUES (${merchant.merchant.id}, ${stuck}, 'REPLAY', ${status}::webhook_delivery_status, ${attempts},
                    CASE WHEN ${status} = 'PENDING' THEN now() END, 'test')`;
        }
        const expected = { IMPS: 60_000, UPI: 60_000 };
        throw new RolledBack(
          await readOperationsGauges(tx, { scheduleEndsAfterMs: expected }),
          // Deadlines passed in the last four hours: the stuck IMPS payout's (3 h ago) and the one in manual
          // review (29 min ago); not the payout queued for balance (3 days ago), nor the young one (not yet).
          await countPayoutsPastExpectedTime(tx, {
            from: new Date(Date.now() - 4 * HOUR * 1000),
            to: new Date(),
            expectedAfterMs: expected,
          }),
        );
      })
      .then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof RolledBack) return error;
          throw error;
        },
      );
    const reading = rolledBack?.reading;

    expect(reading).toBeDefined();
    expect(rolledBack?.overdue).toEqual(
      expect.arrayContaining([
        { mode: 'IMPS', payouts: 2 },
        { mode: 'UPI', payouts: 0 },
      ]),
    );
    expect(reading?.pastSchedule).toEqual(expect.arrayContaining([{ mode: 'IMPS', payouts: 1 }]));
    expect(reading?.pastSchedule.find((p) => p.mode === 'UPI')?.payouts ?? 0).toBe(0);
    expect(reading?.pending).toEqual(
      expect.arrayContaining([
        { mode: 'IMPS', age: '2h_to_24h', payouts: 1 },
        { mode: 'IMPS', age: '15m_to_2h', payouts: 1 },
        { mode: 'UPI', age: 'over_24h', payouts: 1 },
        { mode: 'UPI', age: 'under_1m', payouts: 1 },
      ]),
    );
    expect(reading?.pending).toHaveLength(4);
    expect(reading).toMatchObject({
      manualReview: 1,
      openDiscrepancies: 1,
      lastStatementBreaks: 3,
      openStatementBreaks: 2,
      disabledWebhookEndpoints: 1,
      retryingWebhookDeliveries: 1,
      heldWebhookDeliveries: 1,
    });
  });

  it("when clients open connections, then the connection gauges count them against the server's max_connections", async () => {
    // A server of this test's own: the shared one's connections come and go with every other test.
    const server = await PrivatePostgres.start({ maxConnections: 20 });
    const db = createPrismaClient({ url: server.databaseUrl, poolSize: 1, connectTimeoutMs: 5_000 });
    const others = Array.from({ length: 4 }, () => new pg.Client({ connectionString: server.serverUrl }));
    try {
      const schedule = { scheduleEndsAfterMs: { IMPS: 60_000, UPI: 60_000 } };
      const before = (await readOperationsGauges(db, schedule)).postgresConnections;
      await Promise.all(others.map((client) => client.connect()));
      const during = (await readOperationsGauges(db, schedule)).postgresConnections;

      expect(before.max).toBe(20);
      expect(before.inUse).toBeGreaterThanOrEqual(1); // the reading's own
      // Connections to another database of the server count too: the limit is the server's.
      expect(during.inUse - before.inUse).toBeGreaterThanOrEqual(others.length);
      expect(during.inUse).toBeLessThanOrEqual(during.max);
    } finally {
      await Promise.all(others.map((client) => client.end()));
      await db.$disconnect();
      await server.destroy();
    }
  });

  it('when the worker is scraped, then it publishes the gauges and its last check of the money invariants', async () => {
    const metricsUrl = `http://127.0.0.1:${stack.current.worker.healthPort}/metrics`;
    const text = await eventually(
      () => fetch(metricsUrl).then((r) => r.text()),
      (body) => /^reconcile_last_success_timestamp_seconds\{app="worker"\} [1-9]/m.test(body),
      { what: "the worker's first check of the money invariants" },
    );
    expect(text).toMatch(/^reconcile_invariant_breaches\{check="books-balance",app="worker"\} 0$/m);
    expect(text).toMatch(/^payouts_pending_past_schedule\{mode="IMPS",app="worker"\} 0$/m);
    expect(text).toMatch(/^payouts_pending\{mode="UPI",age="over_24h",app="worker"\} 0$/m);
    expect(text).toMatch(/^payouts_manual_review\{app="worker"\} 0$/m);
    expect(text).toMatch(/^webhook_deliveries_failing\{state="held",app="worker"\} 0$/m);
    expect(text).toMatch(/^statement_breaks_open\{app="worker"\} 0$/m);
    expect(text).toMatch(/^payouts_overdue_total\{mode="UPI",app="worker"\} 0$/m);
    expect(text).toMatch(/^postgres_connections_in_use\{app="worker"\} [1-9]\d*$/m);
    expect(text).toMatch(/^postgres_connections_max\{app="worker"\} [1-9]\d*$/m);
    const checkedAt = Number(/^reconcile_last_success_timestamp_seconds\{app="worker"\} (\S+)$/m.exec(text)![1]);
    expect(Math.abs(checkedAt * 1000 - Date.now())).toBeLessThan(60_000);
  });
});
