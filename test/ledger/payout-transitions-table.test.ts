import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  acceptPayouts,
  cancelPayout,
  checkInvariants,
  creditWallet,
  expireHeldPayouts,
  expireQueuedPayouts,
  failureOf,
  INVARIANT_NAMES,
  recordDiscrepancy,
  resolveDiscrepancyIn,
  reversePayout,
  settlePayout,
  successOf,
  transitionPayout,
  updateQueueSettings,
  type PrismaClientOrTransaction,
} from '@payout/db';
import {
  newAckNo,
  PAYOUT_TRANSITIONS,
  POSTING_ENTRY,
  type FailureReason,
  type LedgerEntryKind,
  type PayoutState,
  type PayoutTransition,
  type TransitionCause,
} from '@payout/domain';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { newTransactionId } from '../support/api.js';
import { registerEndpoint } from '../webhooks/webhook-fixtures.js';

// The table of transitions (packages/domain/src/payout-transitions.ts) is the one statement of what a state
// change does to money. Every row is driven here through the functions the API, the worker, the queue and the
// operators' use cases call, against the real database, and must make exactly the postings and the webhook
// delivery the row names: a SQL function that posts something else, or a row the code cannot make, fails.

const prisma = testPrisma();
afterAll(() => prisma.$disconnect());

const AMOUNT = 10_000n;
const note = { reason: 'test: the table of transitions', actor: 'test' };

/** A payout being driven: its merchant (with a webhook endpoint) and, once it exists, its id. */
interface Subject {
  merchant: TestMerchant;
  payoutId?: bigint;
}

type Driver = (db: PrismaClientOrTransaction, subject: Subject, row: PayoutTransition) => Promise<void>;

async function accept(subject: Subject): Promise<void> {
  const [result] = await acceptPayouts(prisma, [
    {
      merchantId: subject.merchant.merchant.id,
      transactionId: newTransactionId(),
      mode: 'UPI',
      amountPaise: AMOUNT,
      ackNo: newAckNo(),
      account: 'asha.kumar@okhdfc',
      ifsc: null,
      name: 'Asha Kumar',
      bankName: null,
      mobile: null,
      email: null,
      description: null,
      scheduledAt: null,
    },
  ]);
  subject.payoutId = result!.payout.id;
}

function moved(result: { moved: boolean; from: PayoutState | null }, row: PayoutTransition): void {
  if (!result.moved) throw new Error(`${describeRow(row)} did not move: the payout was ${result.from}`);
}

/** How each cause is asked for, by the door that asks for it. A cause without one cannot be walked. */
const DRIVERS: Record<TransitionCause, Driver> = {
  // accept_payouts, as the API calls it; the merchant's balance and queueing decide which of the three.
  accept: (_db, subject) => accept(subject),
  queue: (_db, subject) => accept(subject),
  refuse: (_db, subject) => accept(subject),
  // A credit releases the queue in its own transaction (release_queued_after_credit).
  'release-from-queue': async (db, subject) => {
    await creditWallet(db, subject.merchant.merchant.id, AMOUNT * 2n, `walk-${randomBytes(6).toString('hex')}`);
  },
  // The window passes (the payout is dated back past it), then the queue's expiry runs as the sweeper runs it.
  'queue-expiry': async (db, subject) => {
    await db.$executeRaw`
      UPDATE payouts p SET created_at = now() - make_interval(secs => m.queue_window_seconds + 60)
        FROM merchants m WHERE m.id = p.merchant_id AND p.id = ${subject.payoutId}`;
    await expireQueuedPayouts(db);
  },
  // No bank served its mode for longer than its merchant's hold window (held_since dated back past it), then
  // the expiry runs as the sweeper runs it (the worker runs the same for the one payout it finds expired).
  'hold-expiry': async (db, subject) => {
    await db.$executeRaw`
      UPDATE payouts p SET held_since = now() - make_interval(secs => m.downtime_hold_seconds + 60)
        FROM merchants m WHERE m.id = p.merchant_id AND p.id = ${subject.payoutId}`;
    await expireHeldPayouts(db);
  },
  progress: async (db, subject, row) =>
    moved(
      await transitionPayout(
        db,
        subject.payoutId!,
        row.to as Parameters<typeof transitionPayout>[2],
        { nextCheckAt: new Date(Date.now() + 60_000) },
        note,
      ),
      row,
    ),
  settlement: async (db, subject, row) =>
    moved(
      await settlePayout(
        db,
        row.to === 'SUCCESS'
          ? successOf(subject.payoutId!, `UTR${randomBytes(6).toString('hex')}`, note)
          : failureOf(subject.payoutId!, 'RAIL_REJECTED', note),
      ),
      row,
    ),
  reversal: async (db, subject, row) =>
    moved(await reversePayout(db, subject.payoutId!, { source: 'rail', note }), row),
  // An operator resolves "paid at the bank after it FAILED here" by charging the merchant.
  'late-debit': async (_db, subject) => {
    const { id } = await recordDiscrepancy(prisma, {
      payoutId: subject.payoutId!,
      kind: 'SUCCESS_AFTER_FAILED',
      source: 'rail',
      railAnswer: { status: 'SUCCESS' },
    });
    // In its own transaction, as an operator's resolution is made.
    const outcome = await prisma.$transaction((tx) =>
      resolveDiscrepancyIn(tx, { id, resolution: 'debit-merchant', note: 'paid after all', actor: 'operator:test' }),
    );
    if (outcome.kind !== 'resolved') throw new Error(`late debit not made: ${JSON.stringify(outcome)}`);
  },
  // Its merchant cancels it by TransactionID, as the API's POST /api/payout/cancel does (its own transaction).
  cancel: (_db, subject, row) => cancelByMerchant(subject, row),
  'cancel-queued': (_db, subject, row) => cancelByMerchant(subject, row),
};

async function cancelByMerchant(subject: Subject, row: PayoutTransition): Promise<void> {
  const payout = await prisma.payout.findUniqueOrThrow({ where: { id: subject.payoutId! } });
  const result = await cancelPayout(prisma, {
    merchantId: subject.merchant.merchant.id,
    transactionId: payout.transactionId,
    actor: 'merchant',
  });
  if (result?.outcome !== 'cancelled') throw new Error(`${describeRow(row)} not made: ${result?.outcome}`);
}

/** The causes of `table` that no driver can make. */
function undrivable(table: readonly PayoutTransition[]): string[] {
  return table.filter((row) => !(row.cause in DRIVERS)).map(describeRow);
}

function describeRow(row: PayoutTransition): string {
  return `${row.from ?? '(new)'} → ${row.to} (${row.cause})`;
}

/** The failure reason the drivers give a payout a row fails. */
function drivenReason(row: PayoutTransition): FailureReason | null {
  if (!row.failureReasons) return null;
  return row.failureReasons.includes('RAIL_REJECTED') ? 'RAIL_REJECTED' : row.failureReasons[0]!;
}

/** The shortest path of rows from a new payout to one that `row` applies to. */
function pathTo(row: PayoutTransition): PayoutTransition[] {
  if (row.from === null) return [];
  const start = PAYOUT_TRANSITIONS.filter((t) => t.from === null);
  const queue = start.map((t) => [t]);
  const seen = new Set<string>();
  while (queue.length) {
    const path = queue.shift()!;
    const last = path[path.length - 1]!;
    const reason = drivenReason(last);
    if (last.to === row.from && (!row.keepsState || (reason !== null && row.failureReasons!.includes(reason))))
      return path;
    const key = `${last.to}|${reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const next of PAYOUT_TRANSITIONS.filter((t) => t.from === last.to && !t.keepsState))
      queue.push([...path, next]);
  }
  throw new Error(`no path reaches ${describeRow(row)}`);
}

/** A merchant set up for the path's first row: funded to accept, unfunded to queue or refuse. */
async function subjectFor(first: PayoutTransition): Promise<Subject> {
  const merchant = await makeMerchant(prisma, first.cause === 'accept' ? { balance: '1000.00' } : {});
  if (first.cause === 'queue') await updateQueueSettings(prisma, merchant.mid, { queueIfLowBalance: true });
  await registerEndpoint(prisma, merchant, 'https://acme.example/hooks');
  return { merchant };
}

/** A payout just before `row`: on a fresh merchant, driven along the table from a new payout. */
async function payoutBefore(row: PayoutTransition): Promise<Subject> {
  const path = pathTo(row);
  const subject = await subjectFor(path[0] ?? row);
  for (const step of path) await DRIVERS[step.cause](prisma, subject, step);
  return subject;
}

interface Observed {
  state: PayoutState | null;
  entries: LedgerEntryKind[];
  webhooks: string[];
}

async function observe(db: PrismaClientOrTransaction, payoutId: bigint | undefined): Promise<Observed> {
  if (payoutId === undefined) return { state: null, entries: [], webhooks: [] };
  const [row] = await db.$queryRaw<{ state: PayoutState; entries: LedgerEntryKind[]; webhooks: string[] }[]>`
    SELECT p.state::text AS state,
           ARRAY(SELECT l.kind::text FROM ledger_entries l WHERE l.payout_id = p.id AND l.amount_paise > 0
                  ORDER BY l.id) AS entries,
           ARRAY(SELECT w.cause::text FROM webhook_deliveries w WHERE w.payout_id = p.id ORDER BY w.id) AS webhooks
      FROM payouts p WHERE p.id = ${payoutId}`;
  return row!;
}

function added<T>(before: readonly T[], after: readonly T[]): T[] {
  const rest = [...before];
  return after.filter((x) => {
    const i = rest.indexOf(x);
    if (i < 0) return true;
    rest.splice(i, 1);
    return false;
  });
}

/** What the move did that the row does not say, or null when it did exactly what the row names. */
function mismatch(row: PayoutTransition, before: Observed, after: Observed): string | null {
  const want = {
    state: row.to,
    entries: row.postings.map((p) => POSTING_ENTRY[p]).sort(),
    webhooks: row.webhook ? [row.webhook] : [],
  };
  const got = {
    state: after.state,
    entries: added(before.entries, after.entries).sort(),
    webhooks: added(before.webhooks, after.webhooks),
  };
  return JSON.stringify(got) === JSON.stringify(want)
    ? null
    : `${describeRow(row)}: the table says ${JSON.stringify(want)}, the database did ${JSON.stringify(got)}`;
}

async function walk(row: PayoutTransition, db: PrismaClientOrTransaction = prisma) {
  const subject = await payoutBefore(row);
  const before = await observe(db, subject.payoutId);
  await DRIVERS[row.cause](db, subject, row);
  return { subject, before, after: await observe(db, subject.payoutId) };
}

describe('the table of transitions, walked through the database', () => {
  const walked: bigint[] = [];

  it.each(PAYOUT_TRANSITIONS.map((row) => [describeRow(row), row] as const))(
    '%s makes exactly the postings and the webhook the table names',
    async (_name, row) => {
      const { subject, before, after } = await walk(row);
      expect(mismatch(row, before, after)).toBeNull();
      walked.push(subject.payoutId!);
    },
  );

  it('when every row has been walked, the invariant check, read from the same table, finds those payouts right', async () => {
    expect(walked.length).toBe(PAYOUT_TRANSITIONS.length);
    const report = await checkInvariants(prisma, {
      stuckAfterMs: 60 * 60 * 1000,
      sampleSize: 100_000,
      skip: INVARIANT_NAMES.filter((n) => n !== 'payout-ledger-matches-status'),
    });
    const breaches = report.checks[0]!.examples.map((e) => BigInt(e.payout_id as string));
    expect(breaches.filter((id) => walked.includes(id))).toEqual([]);
  });

  it('when a payout lacks the postings its state and reason imply, the invariant check reports it', async () => {
    const row = PAYOUT_TRANSITIONS.find((t) => t.cause === 'refuse')!;
    const { subject } = await walk(row);
    // Refused for balance, it reserved nothing; failed by the rail, it would carry a reservation and its
    // release. Seen only inside a transaction that is rolled back, so no other check of this database sees it.
    const undone = new Error('rolled back');
    let breaches: unknown[] = [];
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE payouts SET failure_reason = 'RAIL_REJECTED' WHERE id = ${subject.payoutId}`;
        const report = await checkInvariants(tx, {
          stuckAfterMs: 60 * 60 * 1000,
          sampleSize: 100_000,
          skip: INVARIANT_NAMES.filter((n) => n !== 'payout-ledger-matches-status'),
        });
        breaches = report.checks[0]!.examples.map((e) => e.payout_id);
        throw undone;
      }),
    ).rejects.toBe(undone);
    expect(breaches).toContain(subject.payoutId!.toString());
  });

  it('a move the table does not name cannot be asked for: a queued payout is neither failed by a settlement nor accepted without its reservation', async () => {
    const queued = await payoutBefore(PAYOUT_TRANSITIONS.find((t) => t.cause === 'release-from-queue')!);
    const before = await observe(prisma, queued.payoutId);
    expect(before.state).toBe('QUEUED');

    const failed = await settlePayout(prisma, failureOf(queued.payoutId!, 'RAIL_REJECTED', note));
    const accepted = await transitionPayout(prisma, queued.payoutId!, 'ACCEPTED', { nextCheckAt: null }, note);

    expect(failed).toMatchObject({ moved: false, from: 'QUEUED', webhookDeliveryId: null });
    expect(accepted).toMatchObject({ moved: false, from: 'QUEUED' });
    expect(await observe(prisma, queued.payoutId)).toEqual(before);
  });

  it('every row has a way to drive it, and a row added without one is found', () => {
    expect(undrivable(PAYOUT_TRANSITIONS)).toEqual([]);
    const refund = { from: 'SUCCESS', to: 'FAILED', cause: 'refund', postings: [], webhook: 'SETTLEMENT' } as const;
    expect(undrivable([...PAYOUT_TRANSITIONS, refund as unknown as PayoutTransition])).toEqual([
      'SUCCESS → FAILED (refund)',
    ]);
  });

  it('when a SQL function leaves out a posting the table names, the walk fails', async () => {
    const row = PAYOUT_TRANSITIONS.find((t) => t.to === 'SUCCESS' && t.cause === 'settlement')!;
    const source = await readFile(
      new URL('../../packages/db/sql/functions/settle_payouts.sql', import.meta.url),
      'utf8',
    );
    const posting = /PERFORM post_ledger_entry_or_abort\([^;]*\);/;
    expect(source).toMatch(posting);
    const schema = `walk_${randomBytes(6).toString('hex')}`;
    const broken = source
      .replace(posting, 'NULL;')
      .replace('CREATE OR REPLACE FUNCTION "settle_payouts"', `CREATE FUNCTION ${schema}."settle_payouts"`);
    const subject = await payoutBefore(row);
    const undone = new Error('rolled back: the broken function is never seen outside this transaction');
    let found: string | null = null;
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`CREATE SCHEMA ${schema}`);
        await tx.$executeRawUnsafe(broken);
        await tx.$executeRawUnsafe(`SET LOCAL search_path TO ${schema}, public`);
        const before = await observe(tx, subject.payoutId);
        await DRIVERS[row.cause](tx, subject, row);
        found = mismatch(row, before, await observe(tx, subject.payoutId));
        throw undone;
      }),
    ).rejects.toBe(undone);
    expect(found).toMatch(/the table says .*PAYOUT_SETTLE.*, the database did \{"state":"SUCCESS","entries":\[\]/);
  });
});
