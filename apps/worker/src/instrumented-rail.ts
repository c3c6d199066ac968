import type { BeneficiaryValidation, RailAdapter, RailAnswer } from '@payout/rails';
import type { ServiceMetrics } from '@payout/telemetry';

/** The rail, with every call's latency and answer counted (an UNKNOWN answer is a rail error). */
export function instrumentedRail(rail: RailAdapter, metrics: ServiceMetrics): RailAdapter {
  async function observe<A extends RailAnswer | BeneficiaryValidation>(
    operation: 'submit' | 'status' | 'validate',
    call: () => Promise<A>,
  ): Promise<A> {
    const stop = metrics.railRequestDuration.startTimer({ operation });
    const answer = await call();
    stop({ outcome: answer.outcome });
    if (answer.outcome === 'UNKNOWN') metrics.railErrors.inc({ operation });
    return answer;
  }
  return {
    submit: (instruction) => observe('submit', () => rail.submit(instruction)),
    status: (reference) => observe('status', () => rail.status(reference)),
    validateAccount: (account) => observe('validate', () => rail.validateAccount(account)),
    validateUpi: (upi) => observe('validate', () => rail.validateUpi(upi)),
    close: () => rail.close(),
  };
}
