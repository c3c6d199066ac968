import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../test/properties/property-replay.js';
import {
  canTransition,
  externalStatus,
  IN_FLIGHT_STATES,
  isTerminal,
  PAYOUT_STATES,
  statesAllowedBefore,
  TERMINAL_STATES,
  type PayoutState,
} from './payout-state.js';
import { inquiryDelayMs, nextStep, type NextStep, type RailVerdict } from './rail-outcome.js';

// The payout state machine as every writer uses it: a move is attempted, and made only if the table
// allows it from the current state (the database guard runs the same check in the UPDATE). Whatever
// sequence of moves anyone attempts — workers, sweeper, operators, in any order and any number of
// times — a payout reaches at most one terminal state, once, and shows the merchant a status that
// never goes back.

const state = fc.constantFrom(...PAYOUT_STATES);

interface Life {
  states: PayoutState[];
  /** How many attempted moves entered a terminal state: the number of terminal ledger effects. */
  terminalEntries: number;
}

function live(attempts: readonly PayoutState[]): Life {
  let current: PayoutState = 'ACCEPTED';
  const life: Life = { states: [current], terminalEntries: 0 };
  for (const to of attempts) {
    if (!canTransition(current, to)) continue;
    current = to;
    life.states.push(current);
    if (isTerminal(to)) life.terminalEntries++;
  }
  return life;
}

const verdict: fc.Arbitrary<RailVerdict> = fc.oneof(
  fc.stringMatching(/^[0-9]{12}$/).map((bankReference) => ({ outcome: 'SUCCESS' as const, bankReference })),
  fc
    .constantFrom('INVALID_BENEFICIARY_ACCOUNT', 'INVALID_UPI_ADDRESS', 'DECLINED_BY_BENEFICIARY_BANK', 'RAIL_REJECTED')
    .map((reason) => ({ outcome: 'FAILED' as const, reason })),
  fc.constant({ outcome: 'PENDING' as const }),
  fc.string({ maxLength: 10 }).map((detail) => ({ outcome: 'UNKNOWN' as const, detail })),
  fc.constant({ outcome: 'NOT_FOUND' as const }),
);

/** The state the worker moves a payout to for each step of its rule book (apps/worker payout-driver.ts). */
function targetOf(step: NextStep): PayoutState {
  switch (step.kind) {
    case 'settle-success':
      return 'SUCCESS';
    case 'settle-failure':
      return 'FAILED';
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
  it('when any sequence of moves is attempted, then at most one terminal state is ever entered, at most once', () => {
    assertProperty(
      fc.property(fc.array(state, { maxLength: 60 }), (attempts) => {
        const life = live(attempts);
        expect(life.terminalEntries).toBeLessThanOrEqual(1);
        expect(new Set(life.states.filter(isTerminal)).size).toBe(life.terminalEntries);
      }),
      2000,
      import.meta.url,
    );
  });

  it('when a payout is terminal, then every later move is refused (terminal states are absorbing)', () => {
    assertProperty(
      fc.property(fc.array(state, { maxLength: 60 }), (attempts) => {
        const { states } = live(attempts);
        const firstTerminal = states.findIndex(isTerminal);
        if (firstTerminal >= 0) expect(firstTerminal).toBe(states.length - 1);
        for (const from of TERMINAL_STATES) for (const to of attempts) expect(canTransition(from, to)).toBe(false);
      }),
      1000,
      import.meta.url,
    );
  });

  it('when a payout moves, then its external status is PENDING until its one terminal state and never changes after', () => {
    assertProperty(
      fc.property(fc.array(state, { maxLength: 60 }), (attempts) => {
        const statuses = live(attempts).states.map(externalStatus);
        const firstFinal = statuses.findIndex((s) => s !== 'PENDING');
        const expected =
          firstFinal < 0
            ? statuses.map(() => 'PENDING')
            : statuses.map((_, i) => (i < firstFinal ? 'PENDING' : statuses[firstFinal]));
        expect(statuses).toEqual(expected);
      }),
      1000,
      import.meta.url,
    );
  });

  it('when any state is mapped outside, then it is SUCCESS or FAILED exactly when terminal, and PENDING otherwise', () => {
    assertProperty(
      fc.property(state, (s) => {
        const status = externalStatus(s);
        expect(status === 'PENDING').toBe(!isTerminal(s));
        if (isTerminal(s)) expect(status).toBe(s);
        expect(TERMINAL_STATES.includes(s)).toBe(isTerminal(s));
        if (IN_FLIGHT_STATES.includes(s)) expect(status).toBe('PENDING');
      }),
      100,
      import.meta.url,
    );
  });

  it('when a payout reaches SUCCESS by any sequence, then it was sent to the rail (SUBMITTING) first', () => {
    assertProperty(
      fc.property(fc.array(state, { maxLength: 60 }), (attempts) => {
        const { states } = live(attempts);
        const success = states.indexOf('SUCCESS');
        if (success >= 0) expect(states.slice(0, success)).toContain('SUBMITTING');
      }),
      1000,
      import.meta.url,
    );
  });

  it('when the database guard asks which states may precede a move, then it gets exactly the allowed non-terminal ones', () => {
    assertProperty(
      fc.property(state, state, (from, to) => {
        expect(statesAllowedBefore(to).includes(from)).toBe(canTransition(from, to));
        if (isTerminal(from)) expect(statesAllowedBefore(to)).not.toContain(from);
      }),
      200,
      import.meta.url,
    );
  });

  it("when the rail's answers arrive in any order, then the first definite answer decides the payout and an unknown outcome never fails it", () => {
    assertProperty(
      fc.property(fc.array(fc.tuple(verdict, fc.boolean()), { maxLength: 30 }), (answers) => {
        let current: PayoutState = 'SUBMITTING';
        for (const [answer, deadlinePassed] of answers) {
          const to = targetOf(nextStep(answer, deadlinePassed));
          if (answer.outcome === 'UNKNOWN' || answer.outcome === 'PENDING' || answer.outcome === 'NOT_FOUND') {
            expect(isTerminal(to), `${answer.outcome} must not settle a payout`).toBe(false);
          }
          if (canTransition(current, to)) current = to;
        }
        const firstDefinite = answers.find(([a]) => a.outcome === 'SUCCESS' || a.outcome === 'FAILED');
        if (!firstDefinite) expect(isTerminal(current)).toBe(false);
        else expect(current).toBe(firstDefinite[0].outcome);
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
      fc.property(fc.constantFrom(...CONSULTED_IN), verdict, fc.boolean(), (from, answer, deadlinePassed) => {
        const step = nextStep(answer, deadlinePassed);
        expect(canTransition(from, targetOf(step)), `${from} → ${step.kind} (rail: ${answer.outcome})`).toBe(true);
      }),
      500,
      import.meta.url,
    );
  });

  it('when inquiries are scheduled, then each waits between its capped doubling and 20 % more, and never less than the one before', () => {
    const schedule = fc
      .tuple(fc.integer({ min: 1, max: 60_000 }), fc.integer({ min: 1, max: 3_600_000 }))
      .map(([firstDelayMs, extra]) => ({ firstDelayMs, maxDelayMs: firstDelayMs + extra }));
    assertProperty(
      fc.property(
        schedule,
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (s, attempt, r) => {
          const base = Math.min(s.firstDelayMs * 2 ** Math.min(attempt - 1, 30), s.maxDelayMs);
          const delay = inquiryDelayMs(attempt, s, () => r);
          expect(delay).toBeGreaterThanOrEqual(base);
          expect(delay).toBeLessThanOrEqual(Math.round(base * 1.2));
          expect(inquiryDelayMs(attempt + 1, s, () => r)).toBeGreaterThanOrEqual(delay);
        },
      ),
      1000,
      import.meta.url,
    );
  });
});
