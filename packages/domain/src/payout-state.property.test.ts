import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../test/properties/property-replay.js';
import {
  canTransition,
  externalStatus,
  IN_FLIGHT_STATES,
  isTerminal,
  PAYOUT_STATES,
  SETTLED_STATES,
  statesAllowedBefore,
  TERMINAL_STATES,
  type PayoutState,
} from './payout-state.js';
import { inquiryDelayMs, nextStep, type Circumstances, type NextStep, type RailAnswer } from './rail-outcome.js';

// The payout state machine as every writer uses it: a move is attempted, and made only if the table
// allows it from the current state (the database guard runs the same check in the UPDATE). Whatever
// sequence of moves anyone attempts — workers, sweeper, operators, in any order and any number of
// times — a payout is settled at most once, SUCCESS or FAILED, and shows the merchant a status that never
// goes back to PENDING; the one later change is a reversal of a SUCCESS (FAILED outside), once.

const state = fc.constantFrom(...PAYOUT_STATES);

interface Life {
  states: PayoutState[];
  /** How many attempted moves settled the payout: the number of settlement ledger effects. */
  settlements: number;
  /** How many attempted moves reversed it: the number of reversal ledger effects. */
  reversals: number;
}

const isSettled = (s: PayoutState) => SETTLED_STATES.includes(s);

function live(attempts: readonly PayoutState[]): Life {
  let current: PayoutState = 'ACCEPTED';
  const life: Life = { states: [current], settlements: 0, reversals: 0 };
  for (const to of attempts) {
    if (!canTransition(current, to)) continue;
    current = to;
    life.states.push(current);
    if (isSettled(to)) life.settlements++;
    if (to === 'REVERSED') life.reversals++;
  }
  return life;
}

/** Checks the life of a payout under each sequence of moves fast-check attempts (60 moves at most). */
function forEveryLife(numRuns: number, check: (life: Life, attempts: readonly PayoutState[]) => void): void {
  assertProperty(
    fc.property(fc.array(state, { maxLength: 60 }), (attempts) => check(live(attempts), attempts)),
    numRuns,
    import.meta.url,
  );
}

const verdict: fc.Arbitrary<RailAnswer> = fc.oneof(
  fc.stringMatching(/^[0-9]{12}$/).map((bankReference) => ({ outcome: 'SUCCESS' as const, bankReference })),
  fc
    .constantFrom('INVALID_BENEFICIARY_ACCOUNT', 'INVALID_UPI_ADDRESS', 'DECLINED_BY_BENEFICIARY_BANK', 'RAIL_REJECTED')
    .map((reason) => ({ outcome: 'FAILED' as const, reason })),
  fc.constant({ outcome: 'PENDING' as const }),
  fc.string({ maxLength: 10 }).map((detail) => ({ outcome: 'UNKNOWN' as const, detail })),
  fc.constant({ outcome: 'NOT_FOUND' as const }),
  fc.stringMatching(/^[0-9]{12}$/).map((bankReference) => ({ outcome: 'REVERSED' as const, bankReference })),
  fc.string({ maxLength: 10 }).map((detail) => ({ outcome: 'REFUSED' as const, detail })),
);

const circumstances: fc.Arbitrary<Circumstances> = fc.record({
  deadlinePassed: fc.boolean(),
  checksLeft: fc.integer({ min: -1, max: 6 }),
  refused: fc.constantFrom('never' as const, 'recently' as const, 'long-ago' as const),
});

/** Whether the rail's answer is its definite word on the money under these circumstances. */
function definite(answer: RailAnswer, c: Circumstances): boolean {
  if (answer.outcome === 'NOT_FOUND') return c.refused === 'long-ago';
  return answer.outcome === 'SUCCESS' || answer.outcome === 'FAILED' || answer.outcome === 'REVERSED';
}

/** The state the worker moves a payout to for each step of its rule book (apps/worker payout-driver.ts). */
function targetOf(step: NextStep): PayoutState {
  switch (step.kind) {
    case 'settle-success':
      return 'SUCCESS';
    case 'settle-failure':
      return 'FAILED';
    case 'reverse':
      // An unsettled payout is settled SUCCESS first; the reversal follows from SUCCESS.
      return 'SUCCESS';
    case 'inquire-later':
      return step.state;
    case 'resubmit':
      return 'SUBMITTING';
    case 'manual-review':
      return 'MANUAL_REVIEW';
  }
}

// The states in which the worker applies the rule book to a rail answer: right after a submit
// (SUBMITTING), and after an inquiry of a payout in SUBMITTING (left there by a worker that died mid-call),
// AWAITING_RAIL or OUTCOME_UNKNOWN. ACCEPTED, MANUAL_REVIEW and terminal payouts are never asked about.
const CONSULTED_IN: readonly PayoutState[] = ['SUBMITTING', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN'];

describe('payout state machine: properties', () => {
  it('when any sequence of moves is attempted, then a payout is settled at most once and reversed at most once, only after SUCCESS', () => {
    forEveryLife(2000, (life) => {
      expect(life.settlements).toBeLessThanOrEqual(1);
      expect(life.reversals).toBeLessThanOrEqual(1);
      expect(new Set(life.states.filter(isSettled)).size).toBe(life.settlements);
      const reversed = life.states.indexOf('REVERSED');
      if (reversed >= 0) expect(life.states[reversed - 1]).toBe('SUCCESS');
    });
  });

  it('when a payout is terminal, then every later move is refused but the reversal of a SUCCESS', () => {
    forEveryLife(1000, ({ states }, attempts) => {
      const firstTerminal = states.findIndex(isTerminal);
      if (firstTerminal >= 0) {
        const after = states.slice(firstTerminal + 1);
        expect(after).toEqual(states[firstTerminal] === 'SUCCESS' && after.length > 0 ? ['REVERSED'] : []);
      }
      for (const from of TERMINAL_STATES) {
        for (const to of attempts) expect(canTransition(from, to)).toBe(from === 'SUCCESS' && to === 'REVERSED');
      }
    });
  });

  it('when a payout moves, then its external status is PENDING until it is settled, never PENDING again, and changes after only by a reversal', () => {
    forEveryLife(1000, ({ states }) => {
      const statuses = states.map(externalStatus);
      const firstFinal = statuses.findIndex((s) => s !== 'PENDING');
      const expected =
        firstFinal < 0
          ? statuses.map(() => 'PENDING')
          : statuses.map((_, i) =>
              i < firstFinal ? 'PENDING' : states[i] === 'REVERSED' ? 'FAILED' : statuses[firstFinal],
            );
      expect(statuses).toEqual(expected);
    });
  });

  it('when any state is mapped outside, then it is SUCCESS or FAILED exactly when terminal, and PENDING otherwise', () => {
    assertProperty(
      fc.property(state, (s) => {
        const status = externalStatus(s);
        expect(status === 'PENDING').toBe(!isTerminal(s));
        if (isSettled(s)) expect(status).toBe(s);
        if (s === 'REVERSED') expect(status).toBe('FAILED');
        expect(TERMINAL_STATES.includes(s)).toBe(isTerminal(s));
        if (IN_FLIGHT_STATES.includes(s)) expect(status).toBe('PENDING');
      }),
      100,
      import.meta.url,
    );
  });

  it('when a payout reaches SUCCESS by any sequence, then it was sent to the rail (SUBMITTING) first', () => {
    forEveryLife(1000, ({ states }) => {
      const success = states.indexOf('SUCCESS');
      if (success >= 0) expect(states.slice(0, success)).toContain('SUBMITTING');
    });
  });

  it('when the database guard asks which states may precede a move, then it gets exactly the allowed ones, and a terminal state only before a reversal', () => {
    assertProperty(
      fc.property(state, state, (from, to) => {
        expect(statesAllowedBefore(to).includes(from)).toBe(canTransition(from, to));
        // The one move out of a terminal state: a SUCCESS whose money came back (docs/reconciliation.md).
        const reversal = from === 'SUCCESS' && to === 'REVERSED';
        if (isTerminal(from) && !reversal) expect(statesAllowedBefore(to)).not.toContain(from);
      }),
      200,
      import.meta.url,
    );
  });

  it("when the rail's answers arrive in any order, then the first definite answer decides the payout and nothing else — a time-out, a refusal, an early NOT_FOUND — ever settles it", () => {
    assertProperty(
      fc.property(fc.array(fc.tuple(verdict, circumstances), { maxLength: 30 }), (answers) => {
        let current: PayoutState = 'SUBMITTING';
        for (const [answer, c] of answers) {
          const to = targetOf(nextStep(answer, c));
          if (!definite(answer, c)) expect(isTerminal(to), `${answer.outcome} must not settle a payout`).toBe(false);
          if (canTransition(current, to)) current = to;
        }
        const firstDefinite = answers.find(([a, c]) => definite(a, c));
        if (!firstDefinite) expect(isTerminal(current)).toBe(false);
        else {
          const [answer] = firstDefinite;
          expect(current).toBe(answer.outcome === 'FAILED' || answer.outcome === 'NOT_FOUND' ? 'FAILED' : 'SUCCESS');
        }
      }),
      1000,
      import.meta.url,
    );
  });

  it('when the worker applies its rule book in any state it consults it in, then the step it asks for is a move the state machine allows', () => {
    // A step the table refuses is silently dropped by the guarded UPDATE, and the payout stays where it
    // was: e.g. past the inquiry deadline a payout still in SUBMITTING cannot go to MANUAL_REVIEW, so it
    // is never handed to an operator and is polled for ever instead.
    assertProperty(
      fc.property(fc.constantFrom(...CONSULTED_IN), verdict, circumstances, (from, answer, c) => {
        const step = nextStep(answer, c);
        expect(canTransition(from, targetOf(step)), `${from} → ${step.kind} (rail: ${answer.outcome})`).toBe(true);
      }),
      500,
      import.meta.url,
    );
  });

  it('when status checks are scheduled, then each waits at least what the schedule says and at most a tenth more', () => {
    const schedule = fc.record({
      firstDelayMs: fc.integer({ min: 1, max: 600_000 }),
      spacingMs: fc.integer({ min: 1, max: 7_200_000 }),
      maxChecks: fc.integer({ min: 1, max: 10 }),
    });
    assertProperty(
      fc.property(
        schedule,
        fc.constantFrom('submit' as const, 'status-check' as const),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (s, after, r) => {
          const base = after === 'submit' ? s.firstDelayMs : s.spacingMs;
          const delay = inquiryDelayMs(after, s, () => r);
          expect(delay).toBeGreaterThanOrEqual(base);
          expect(delay).toBeLessThanOrEqual(Math.round(base * 1.1));
        },
      ),
      1000,
      import.meta.url,
    );
  });
});
