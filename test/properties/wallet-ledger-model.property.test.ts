import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  acceptPayouts,
  CreditReferenceConflictError,
  creditWallet,
  checkInvariants,
  reversePayout,
  settleFailure,
  settleSuccess,
  transitionPayout,
  type AcceptResult,
  type PrismaClient,
} from '@payout/db';
import { canTransition, newAckNo, type PayoutMode, type PayoutState } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { assertAsyncProperty, commandsReplayPath } from './property-replay.js';

// A model-based test of the money paths against the real database: random sequences of wallet credits,
// payout accepts, moves through the worker's states, settlements, reversals and repeats of each (some of them
// raced against each other), run through the very functions the API and the worker call. After every
// step the database must agree with a small in-memory model, and the books must balance.

const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

interface ModelPayout {
  transactionId: string;
  id: bigint;
  amount: bigint;
  mode: PayoutMode;
  state: PayoutState;
  /** Refused for balance: recorded FAILED with no reservation, so it never had a ledger effect. */
  refused: boolean;
}

interface Model {
  /** Credit reference → amount credited under it. */
  credits: Map<string, bigint>;
  available: bigint;
  reserved: bigint;
  paidOut: bigint;
  payouts: Map<string, ModelPayout>;
}

interface Real {
  db: PrismaClient;
  merchantId: number;
}

type Command = fc.AsyncCommand<Model, Real>;

const note = { reason: 'model-based property test', actor: 'test' };
const creditedTotal = (m: Model) => [...m.credits.values()].reduce((a, b) => a + b, 0n);
const pick = (m: Model, n: number): ModelPayout => [...m.payouts.values()][n % m.payouts.size]!;

function instruction(r: Real, transactionId: string, amount: bigint, mode: PayoutMode) {
  return {
    merchantId: r.merchantId,
    transactionId,
    mode,
    amountPaise: amount,
    ackNo: newAckNo(),
    account: mode === 'IMPS' ? '123456789012' : 'asha.kumar@okhdfc',
    ifsc: mode === 'IMPS' ? 'HDFC0001234' : null,
    name: 'Asha Kumar',
    bankName: null,
    mobile: null,
    email: null,
    description: null,
    scheduledAt: null,
  };
}

/** What the model expects an accept of a new TransactionID to do, applied to the model. */
function acceptInModel(m: Model, transactionId: string, amount: bigint, mode: PayoutMode, id: bigint): ModelPayout {
  const refused = m.available < amount;
  if (!refused) {
    m.available -= amount;
    m.reserved += amount;
  }
  const payout: ModelPayout = { transactionId, id, amount, mode, state: refused ? 'FAILED' : 'ACCEPTED', refused };
  m.payouts.set(transactionId, payout);
  return payout;
}

function expectAcceptOutcome(
  result: AcceptResult,
  expected: ModelPayout | undefined,
  amount: bigint,
  available: bigint,
) {
  if (expected) {
    expect(result.outcome).toBe('existing');
    expect(result.payout.id).toBe(expected.id);
    expect(result.payout.state).toBe(expected.state);
  } else {
    expect(result.outcome).toBe(available >= amount ? 'accepted' : 'rejected');
    expect(result.payout.state).toBe(available >= amount ? 'ACCEPTED' : 'FAILED');
  }
}

function settleInModel(p: ModelPayout, m: Model, to: 'SUCCESS' | 'FAILED'): void {
  p.state = to;
  m.reserved -= p.amount;
  if (to === 'SUCCESS') m.paidOut += p.amount;
  else m.available += p.amount;
}

class CreditCommand implements Command {
  constructor(
    readonly reference: string,
    readonly amount: bigint,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const earlier = m.credits.get(this.reference);
    if (earlier === undefined) {
      expect((await creditWallet(r.db, r.merchantId, this.amount, this.reference)).credited).toBe(true);
      m.credits.set(this.reference, this.amount);
      m.available += this.amount;
    } else if (earlier === this.amount) {
      expect((await creditWallet(r.db, r.merchantId, this.amount, this.reference)).credited).toBe(false);
    } else {
      await expect(creditWallet(r.db, r.merchantId, this.amount, this.reference)).rejects.toThrow(
        CreditReferenceConflictError,
      );
    }
    await expectBooksMatch(m, r);
  }
  toString = () => `credit(${this.reference}, ${this.amount})`;
}

class AcceptCommand implements Command {
  constructor(
    readonly transactionId: string,
    readonly amount: bigint,
    readonly mode: PayoutMode,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const [result] = await acceptPayouts(r.db, [instruction(r, this.transactionId, this.amount, this.mode)]);
    const known = m.payouts.get(this.transactionId);
    expectAcceptOutcome(result!, known, this.amount, m.available);
    if (!known) acceptInModel(m, this.transactionId, this.amount, this.mode, result!.payout.id);
    await expectBooksMatch(m, r);
  }
  toString = () => `accept(${this.transactionId}, ${this.amount}, ${this.mode})`;
}

/** The same TransactionID sent twice at once (a merchant's retry racing its first request). */
class ConcurrentAcceptCommand implements Command {
  constructor(
    readonly transactionId: string,
    readonly amount: bigint,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const results = await Promise.all([
      acceptPayouts(r.db, [instruction(r, this.transactionId, this.amount, 'UPI')]),
      acceptPayouts(r.db, [instruction(r, this.transactionId, this.amount, 'UPI')]),
    ]);
    const outcomes = results.map(([result]) => result!);
    const known = m.payouts.get(this.transactionId);
    if (known) {
      for (const o of outcomes) expectAcceptOutcome(o, known, this.amount, m.available);
    } else {
      const first = outcomes.filter((o) => o.outcome !== 'existing');
      expect(first, 'exactly one of two concurrent accepts records the payout').toHaveLength(1);
      expectAcceptOutcome(first[0]!, undefined, this.amount, m.available);
      expect(new Set(outcomes.map((o) => o.payout.id)).size).toBe(1);
      acceptInModel(m, this.transactionId, this.amount, 'UPI', first[0]!.payout.id);
    }
    await expectBooksMatch(m, r);
  }
  toString = () => `acceptTwiceAtOnce(${this.transactionId}, ${this.amount})`;
}

/** A worker's non-terminal move: sent to the rail, awaiting it, outcome unknown, manual review. */
class MoveCommand implements Command {
  constructor(
    readonly which: number,
    readonly to: Exclude<PayoutState, 'SUCCESS' | 'FAILED' | 'REVERSED' | 'ACCEPTED'>,
  ) {}
  check = (m: Readonly<Model>) => m.payouts.size > 0;
  async run(m: Model, r: Real) {
    const p = pick(m, this.which);
    const result = await transitionPayout(
      r.db,
      p.id,
      this.to,
      { nextCheckAt: new Date(Date.now() + 60_000), incrementSubmitAttempts: this.to === 'SUBMITTING' },
      note,
    );
    expect({ moved: result.moved, from: result.from }).toEqual({
      moved: canTransition(p.state, this.to),
      from: p.state,
    });
    if (result.moved) p.state = this.to;
    await expectBooksMatch(m, r);
  }
  toString = () => `move(#${this.which} → ${this.to})`;
}

class SettleCommand implements Command {
  constructor(
    readonly which: number,
    readonly to: 'SUCCESS' | 'FAILED',
  ) {}
  check = (m: Readonly<Model>) => m.payouts.size > 0;
  async run(m: Model, r: Real) {
    const p = pick(m, this.which);
    const result = await settle(r, p.id, this.to);
    expect({ moved: result.moved, from: result.from }).toEqual({
      moved: canTransition(p.state, this.to),
      from: p.state,
    });
    if (result.moved) settleInModel(p, m, this.to);
    await expectBooksMatch(m, r);
  }
  toString = () => `settle(#${this.which} → ${this.to})`;
}

/** A late SUCCESS from the rail racing a FAILED verdict on the same payout: one wins, once. */
class RaceCommand implements Command {
  constructor(readonly which: number) {}
  check = (m: Readonly<Model>) => m.payouts.size > 0;
  async run(m: Model, r: Real) {
    const p = pick(m, this.which);
    const [success, failure] = await Promise.all([settle(r, p.id, 'SUCCESS'), settle(r, p.id, 'FAILED')]);
    const winners = (['SUCCESS', 'FAILED'] as const).filter((to) => (to === 'SUCCESS' ? success : failure).moved);
    const couldSettle = canTransition(p.state, 'SUCCESS') || canTransition(p.state, 'FAILED');
    expect(winners.length, `winners ${winners.join(',')} from ${p.state}`).toBe(couldSettle ? 1 : 0);
    if (winners[0]) settleInModel(p, m, winners[0]);
    await expectBooksMatch(m, r);
  }
  toString = () => `race(#${this.which}: SUCCESS vs FAILED)`;
}

/** The same reversal reported twice at once (the rail and the statement): the money returns once, from SUCCESS only. */
class ReverseCommand implements Command {
  constructor(readonly which: number) {}
  check = (m: Readonly<Model>) => m.payouts.size > 0;
  async run(m: Model, r: Real) {
    const p = pick(m, this.which);
    const results = await Promise.all([
      reversePayout(r.db, p.id, { source: 'rail', note }),
      reversePayout(r.db, p.id, { source: 'statement', note }),
    ]);
    const moved = results.filter((result) => result.moved).length;
    expect(moved, `reversals from ${p.state}`).toBe(p.state === 'SUCCESS' ? 1 : 0);
    if (moved) {
      p.state = 'REVERSED';
      m.paidOut -= p.amount;
      m.available += p.amount;
    }
    await expectBooksMatch(m, r);
  }
  toString = () => `reverse(#${this.which}, twice at once)`;
}

function settle(r: Real, id: bigint, to: 'SUCCESS' | 'FAILED') {
  return to === 'SUCCESS'
    ? settleSuccess(r.db, id, `UTR${id}`, note)
    : settleFailure(r.db, id, 'DECLINED_BY_BENEFICIARY_BANK', note);
}

let stepsChecked = 0;

/** The database against the model, and every money invariant, after a step. */
async function expectBooksMatch(m: Model, r: Real): Promise<void> {
  stepsChecked++;
  const { rows } = await pool.query<Record<string, string | null>>(
    `SELECT
       (SELECT available_paise::text FROM wallets WHERE merchant_id = $1) AS available,
       (SELECT reserved_paise::text FROM wallets WHERE merchant_id = $1) AS reserved,
       (SELECT coalesce(sum(amount_paise) FILTER (WHERE account = 'MAIN_WALLET'), 0)::text FROM ledger_entries WHERE merchant_id = $1) AS ledger_available,
       (SELECT coalesce(sum(amount_paise) FILTER (WHERE account = 'RESERVED'), 0)::text FROM ledger_entries WHERE merchant_id = $1) AS ledger_reserved,
       (SELECT coalesce(sum(amount_paise) FILTER (WHERE account = 'PAID_OUT'), 0)::text FROM ledger_entries WHERE merchant_id = $1) AS ledger_paid_out,
       (SELECT (-coalesce(sum(amount_paise) FILTER (WHERE account = 'FUNDING'), 0))::text FROM ledger_entries WHERE merchant_id = $1) AS ledger_credits`,
    [r.merchantId],
  );
  const b = Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, BigInt(v ?? 0)]));
  const credits = creditedTotal(m);
  expect(b.available! >= 0n && b.reserved! >= 0n, 'balances never negative').toBe(true);
  expect(b, 'wallet and ledger against the model').toEqual({
    available: m.available,
    reserved: m.reserved,
    ledger_available: m.available,
    ledger_reserved: m.reserved,
    ledger_paid_out: m.paidOut,
    ledger_credits: credits,
  });
  expect(b.available! + b.reserved! + b.ledger_paid_out!, 'available + reserved + paid out = credits').toBe(credits);

  const payouts = await payoutEffects(pool, r.merchantId);
  expect(payouts, 'every payout: its state, one reservation unless refused, at most one terminal entry').toEqual(
    [...m.payouts.values()]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((p) => ({
        id: p.id.toString(),
        state: p.state,
        reserves: p.refused ? 0 : 1,
        terminal_entries: p.refused || !['SUCCESS', 'FAILED', 'REVERSED'].includes(p.state) ? 0 : 1,
      })),
  );

  const report = await checkInvariants(r.db, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
  expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
}

async function payoutEffects(db: pg.Pool, merchantId: number) {
  const { rows } = await db.query<{ id: string; state: string; reserves: number; terminal_entries: number }>(
    `SELECT p.id::text, p.state::text,
            count(l.id) FILTER (WHERE l.kind = 'PAYOUT_RESERVE' AND l.account = 'RESERVED')::int AS reserves,
            count(l.id) FILTER (WHERE l.kind IN ('PAYOUT_SETTLE', 'PAYOUT_RELEASE') AND l.account = 'RESERVED')::int
              AS terminal_entries
       FROM payouts p LEFT JOIN ledger_entries l ON l.payout_id = p.id
      WHERE p.merchant_id = $1 GROUP BY p.id ORDER BY p.id`,
    [merchantId],
  );
  return rows;
}

// Small pools of references and TransactionIDs, so repeats (the same credit again, the same payout
// again) are frequent; amounts small against credits, so both accepts and refusals for balance happen.
const reference = fc.constantFrom('NEFT-1', 'NEFT-2', 'NEFT-3', 'NEFT-4');
const transactionId = fc.integer({ min: 1, max: 8 }).map(String);
const amount = fc.bigInt({ min: 1n, max: 30_000n });
const commands = fc.commands(
  [
    fc.tuple(reference, fc.bigInt({ min: 1n, max: 50_000n })).map(([ref, paise]) => new CreditCommand(ref, paise)),
    fc
      .tuple(transactionId, amount, fc.constantFrom<PayoutMode>('IMPS', 'UPI'))
      .map(([tx, paise, mode]) => new AcceptCommand(tx, paise, mode)),
    fc.tuple(transactionId, amount).map(([tx, paise]) => new ConcurrentAcceptCommand(tx, paise)),
    fc
      .tuple(
        fc.nat(),
        fc.constantFrom<MoveCommand['to']>('SUBMITTING', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN', 'MANUAL_REVIEW'),
      )
      .map(([n, to]) => new MoveCommand(n, to)),
    fc.nat().map((n) => new MoveCommand(n, 'SUBMITTING')),
    fc
      .tuple(fc.nat(), fc.constantFrom<'SUCCESS' | 'FAILED'>('SUCCESS', 'FAILED'))
      .map(([n, to]) => new SettleCommand(n, to)),
    fc.nat().map((n) => new RaceCommand(n)),
    fc.nat().map((n) => new ReverseCommand(n)),
  ],
  { maxCommands: 30, size: '+1', ...(commandsReplayPath() ? { replayPath: commandsReplayPath() } : {}) },
);

describe('wallet and payouts against a model', () => {
  it('when any sequence of credits, accepts, moves, settlements, reversals and repeats runs, then the books match the model after every step', async () => {
    await assertAsyncProperty(
      fc.asyncProperty(commands, async (cmds) => {
        // A merchant of its own per run: the model starts from nothing, and shrinking replays cleanly.
        const { merchant } = await makeMerchant(prisma);
        const model: Model = { credits: new Map(), available: 0n, reserved: 0n, paidOut: 0n, payouts: new Map() };
        await fc.asyncModelRun(() => ({ model, real: { db: prisma, merchantId: merchant.id } }), cmds);
      }),
      30,
      import.meta.url,
    );
    console.log(`wallet model: ${stepsChecked} steps checked against the model and reconcile`);
    expect(stepsChecked).toBeGreaterThan(0);
    // Thirty runs of up to thirty steps, each followed by a full reconcile: a minute on a busy machine.
  }, 120_000);
});
