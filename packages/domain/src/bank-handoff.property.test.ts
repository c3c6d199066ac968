import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../test/properties/property-replay.js';
import { bankStep, mayLeaveBank, type BankExchange, type RailOutcome } from './bank-handoff.js';
import type { Circumstances, RailAnswer } from './rail-outcome.js';

// The never-two-banks rule (docs/banks.md, "Never two banks") against banks that behave as real ones do: a
// payout is driven by the worker's pure rule book (bankStep) through two banks that take, pay, decline,
// reverse, lose replies, answer 503, refuse, refuse duplicates, glitch and lag in their status API (by less
// than the trust age, the one assumption the rule rests on, docs/bank-boundary.md), while routing says at
// random whether the payout's bank still serves. Whatever happens, a reference is never held by two banks,
// never paid by two, and never leaves a bank that took it or whose last word was not a definitive no.

const TRUST_MS = 1_000;

type Decision = 'pay' | 'decline' | 'pay-then-reverse';
type SubmitManner = 'answer' | 'lose-reply' | 'refuse' | 'down' | 'strict-duplicate';
type StatusManner = 'book' | 'glitch';

interface Held {
  at: number;
  decision: Decision;
  pendingForMs: number;
}

/** One bank's book of our reference, and how it answers. */
class ModelBank {
  held: Held | null = null;
  constructor(
    readonly name: string,
    private readonly lagMs: number,
  ) {}

  submit(now: number, manner: SubmitManner, decision: Decision, pendingForMs: number): RailAnswer {
    if (this.held) {
      // A reference it holds: a strict bank refuses the duplicate, another echoes its state; a reply may be lost.
      if (manner === 'strict-duplicate' || manner === 'refuse') return { outcome: 'REFUSED', detail: 'duplicate' };
      if (manner === 'lose-reply' || manner === 'down') return { outcome: 'UNKNOWN', detail: 'lost' };
      return this.book(now);
    }
    switch (manner) {
      case 'refuse':
      case 'strict-duplicate':
        return { outcome: 'REFUSED', detail: 'HTTP 422' };
      case 'down':
        return { outcome: 'UNKNOWN', detail: 'HTTP 503' };
      case 'lose-reply':
        this.held = { at: now, decision, pendingForMs };
        return { outcome: 'UNKNOWN', detail: 'no reply' };
      case 'answer':
        this.held = { at: now, decision, pendingForMs };
        return this.book(now);
    }
  }

  status(now: number, manner: StatusManner): RailAnswer {
    if (manner === 'glitch') return { outcome: 'UNKNOWN', detail: 'HTTP 502' };
    if (!this.held || now < this.held.at + this.lagMs) return { outcome: 'NOT_FOUND' };
    return this.book(now);
  }

  private book(now: number): RailAnswer {
    const held = this.held!;
    if (now < held.at + held.pendingForMs) return { outcome: 'PENDING' };
    switch (held.decision) {
      case 'pay':
        return { outcome: 'SUCCESS', bankReference: `UTR${this.name}` };
      case 'decline':
        return { outcome: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' };
      case 'pay-then-reverse':
        return { outcome: 'REVERSED', bankReference: `UTR${this.name}` };
    }
  }

  paid(): boolean {
    return this.held !== null && this.held.decision !== 'decline';
  }
}

interface Turn {
  waitMs: number;
  submit: SubmitManner;
  status: StatusManner;
  decision: Decision;
  pendingForMs: number;
  /** Whether routing says the payout's bank still serves its mode at this turn. */
  serving: boolean;
}

const turn: fc.Arbitrary<Turn> = fc.record({
  waitMs: fc.integer({ min: 0, max: 3 * TRUST_MS }),
  submit: fc.constantFrom<SubmitManner>('answer', 'lose-reply', 'refuse', 'down', 'strict-duplicate'),
  status: fc.constantFrom<StatusManner>('book', 'book', 'glitch'),
  decision: fc.constantFrom<Decision>('pay', 'decline', 'pay-then-reverse'),
  pendingForMs: fc.integer({ min: 0, max: 2 * TRUST_MS }),
  serving: fc.boolean(),
});

interface Move {
  from: string;
  exchanges: BankExchange[];
  /** Whether the bank left held the reference when the payout left it. */
  leftHeld: boolean;
}

interface Life {
  banks: ModelBank[];
  moves: Move[];
  /** Each bank the reference was submitted to, in order (a bank again after a move back counts again). */
  sentTo: string[];
  /** Whether two banks ever held the reference at once. */
  heldByTwo: boolean;
}

/** Drives one payout the way the worker does (apps/worker/src/payout-driver.ts) through the turns. */
function live(turns: readonly Turn[], lags: readonly [number, number]): Life {
  const banks = [new ModelBank('A', lags[0]), new ModelBank('B', lags[1])];
  const life: Life = { banks, moves: [], sentTo: [], heldByTwo: false };
  let at = 0;
  let now = 0;
  let stint: BankExchange[] = [];
  let firstRefusalAt: number | null = null;
  let next: 'submit' | 'status' = 'submit';
  for (const t of turns) {
    now += t.waitMs;
    const bank = banks[at]!;
    let answer: RailAnswer;
    if (next === 'submit') {
      if (stint.length === 0) life.sentTo.push(bank.name);
      stint.push({ kind: 'submit', at: now });
      answer = bank.submit(now, t.submit, t.decision, t.pendingForMs);
    } else {
      answer = bank.status(now, t.status);
    }
    stint.push({ kind: 'answer', outcome: answer.outcome, at: now });
    if (answer.outcome === 'REFUSED') firstRefusalAt ??= now;
    if (banks.every((b) => b.held !== null)) life.heldByTwo = true;

    const circumstances: Circumstances = {
      deadlinePassed: false,
      checksLeft: 1_000,
      refused: firstRefusalAt === null ? 'never' : now - firstRefusalAt >= TRUST_MS ? 'long-ago' : 'recently',
    };
    const step = bankStep(answer, circumstances, { serving: t.serving, exchanges: stint }, TRUST_MS);
    switch (step.kind) {
      case 'settle-success':
      case 'settle-failure':
      case 'reverse':
      case 'manual-review':
        return life;
      case 'inquire-later':
      case 'ask-when-trusted':
        next = 'status';
        break;
      case 'resubmit':
        next = 'submit';
        break;
      case 'move-to-another-bank':
        life.moves.push({ from: bank.name, exchanges: [...stint], leftHeld: bank.held !== null });
        at = 1 - at;
        stint = [];
        firstRefusalAt = null;
        next = 'submit';
        break;
    }
  }
  return life;
}

const lives = fc.tuple(
  fc.array(turn, { minLength: 1, maxLength: 40 }),
  fc.tuple(fc.integer({ min: 0, max: TRUST_MS - 1 }), fc.integer({ min: 0, max: TRUST_MS - 1 })),
);

const TOOK_IT: readonly RailOutcome[] = ['SUCCESS', 'PENDING', 'FAILED', 'REVERSED'];

describe('the never-two-banks rule, driven through two banks', () => {
  it('never leaves a bank holding the reference, so no reference is ever held or paid by two banks', () => {
    assertProperty(
      fc.property(lives, ([turns, lags]) => {
        const life = live(turns, lags);
        expect(life.moves.filter((m) => m.leftHeld)).toEqual([]);
        expect(life.heldByTwo).toBe(false);
        expect(life.banks.filter((b) => b.paid()).length).toBeLessThanOrEqual(1);
      }),
      400,
      import.meta.url,
    );
  });

  it('moves only on a definitive no: never after SUCCESS, PENDING, FAILED or REVERSED from the bank, never on an UNKNOWN', () => {
    assertProperty(
      fc.property(lives, ([turns, lags]) => {
        for (const move of live(turns, lags).moves) {
          const answers = move.exchanges.filter((e) => e.kind === 'answer');
          const submits = move.exchanges.filter((e) => e.kind === 'submit');
          const last = answers.at(-1)!;
          expect(answers.filter((a) => TOOK_IT.includes(a.outcome))).toEqual([]);
          expect(['REFUSED', 'NOT_FOUND']).toContain(last.outcome);
          if (last.outcome === 'REFUSED') expect(submits).toHaveLength(1);
          else expect(last.at - submits.at(-1)!.at).toBeGreaterThanOrEqual(TRUST_MS);
        }
      }),
      400,
      import.meta.url,
    );
  });

  it('when the bank keeps serving, the payout never moves (as with one bank)', () => {
    assertProperty(
      fc.property(lives, ([turns, lags]) => {
        const life = live(
          turns.map((t) => ({ ...t, serving: true })),
          lags,
        );
        expect(life.moves).toEqual([]);
        expect(new Set(life.sentTo).size).toBeLessThanOrEqual(1);
      }),
      200,
      import.meta.url,
    );
  });

  it('the scenario the rule exists for happens: a payout refused, or unknown to a bank long after, moves', () => {
    // Not vacuous: some lives do move (and then the properties above hold of them).
    let moved = 0;
    fc.assert(
      fc.property(lives, ([turns, lags]) => {
        if (live(turns, lags).moves.length > 0) moved++;
      }),
      { numRuns: 300, seed: 7 },
    );
    expect(moved).toBeGreaterThan(0);
  });
});

const outcome = fc.constantFrom<RailOutcome>(
  'SUCCESS',
  'FAILED',
  'PENDING',
  'REVERSED',
  'UNKNOWN',
  'NOT_FOUND',
  'REFUSED',
);
const exchange: fc.Arbitrary<BankExchange> = fc.oneof(
  fc.record({ kind: fc.constant('submit' as const), at: fc.integer({ min: 0, max: 10 * TRUST_MS }) }),
  fc.record({ kind: fc.constant('answer' as const), outcome, at: fc.integer({ min: 0, max: 10 * TRUST_MS }) }),
);

describe('mayLeaveBank, for any exchanges (every outcome, any timing, replies lost or not)', () => {
  it('allows a move only after a refused only submit or a NOT_FOUND a trust age after the last submit, and never after the bank took it', () => {
    assertProperty(
      fc.property(
        fc.array(exchange, { maxLength: 12 }).map((list) => [...list].sort((a, b) => a.at - b.at)),
        (exchanges) => {
          const handoff = mayLeaveBank(exchanges, TRUST_MS);
          if (!handoff.may) return;
          const answers = exchanges.filter((e) => e.kind === 'answer');
          const submits = exchanges.filter((e) => e.kind === 'submit');
          const last = exchanges.at(-1)!;
          expect(submits.length).toBeGreaterThan(0);
          expect(answers.some((a) => TOOK_IT.includes(a.outcome))).toBe(false);
          expect(last.kind).toBe('answer');
          if (last.kind !== 'answer') return;
          if (last.outcome === 'REFUSED') expect(submits).toHaveLength(1);
          else {
            expect(last.outcome).toBe('NOT_FOUND');
            expect(last.at - submits.at(-1)!.at).toBeGreaterThanOrEqual(TRUST_MS);
          }
        },
      ),
      500,
      import.meta.url,
    );
  });
});
