import { bankOutcomeOf, type BankName, type BankOutcome, type PayoutMode } from '@payout/domain';
import type { BankRails, BeneficiaryValidation, RailAdapter, RailAnswer } from '@payout/rails';
import type { ServiceMetrics } from '@payout/telemetry';
import { NO_THROTTLE, type BankThrottle } from './banks/bank-throttle.js';

/** Where the outcome of each submit is counted for its bank's health (docs/banks.md, "Routing"). */
export interface OutcomeRecorder {
  record(bank: BankName, mode: PayoutMode, outcome: BankOutcome): void;
}

export interface RailInstruments {
  metrics: ServiceMetrics;
  /** Each bank's calls a second; none by default. */
  throttle?: BankThrottle;
  /** Each submit's outcome, for its bank's health window; not counted by default. */
  health?: OutcomeRecorder;
}

/**
 * One bank's rail, with every call's latency and answer counted under the bank's alias (an UNKNOWN answer
 * is a rail error), each call waiting for the bank's own rate, and each submit's outcome counted in its
 * bank's health window.
 */
export function instrumentedRail(rail: RailAdapter, bank: BankName, instruments: RailInstruments): RailAdapter {
  const { metrics } = instruments;
  const throttle = instruments.throttle ?? NO_THROTTLE;
  async function observe<A extends RailAnswer | BeneficiaryValidation>(
    operation: 'submit' | 'status' | 'validate',
    call: () => Promise<A>,
  ): Promise<A> {
    await throttle.take(bank);
    const stop = metrics.railRequestDuration.startTimer({ bank, operation });
    const answer = await call();
    stop({ outcome: answer.outcome });
    if (answer.outcome === 'UNKNOWN') metrics.railErrors.inc({ bank, operation });
    return answer;
  }
  return {
    submit: async (instruction) => {
      const answer = await observe('submit', () => rail.submit(instruction));
      instruments.health?.record(bank, instruction.mode, bankOutcomeOf(answer, timedOut(answer)));
      return answer;
    },
    status: (reference) => observe('status', () => rail.status(reference)),
    validateAccount: (account) => observe('validate', () => rail.validateAccount(account)),
    validateUpi: (upi) => observe('validate', () => rail.validateUpi(upi)),
    close: () => rail.close(),
  };
}

/** Every configured bank's rail, instrumented ({@link instrumentedRail}), by alias. */
export function instrumentedBankRails(rails: BankRails, instruments: RailInstruments): BankRails {
  const byBank = new Map(
    rails.banks.map((bank) => [bank.name, instrumentedRail(rails.rail(bank.name), bank.name, instruments)]),
  );
  return {
    banks: rails.banks,
    rail(bank) {
      const rail = byBank.get(bank);
      if (!rail) return rails.rail(bank); // throws: the configuration does not name it
      return rail;
    },
    close: () => rails.close(),
  };
}

/**
 * Whether an UNKNOWN was a time-out — no connection or no reply in time — rather than a 5xx or an unreadable
 * reply: the HTTP adapter's details say so (packages/rails/src/http-rail-adapter.ts, describeFailure).
 */
function timedOut(answer: RailAnswer): boolean {
  return answer.outcome === 'UNKNOWN' && /^no (connection to|reply from) the rail within/.test(answer.detail);
}
