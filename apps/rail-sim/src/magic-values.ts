import type { PayoutInstruction, RailFailureReason } from '@payout/rails';

/** What the simulated bank does with a new reference; docs/rail-sim.md has the table. */
export type Scenario =
  | { kind: 'pay' }
  | { kind: 'fail'; reason: RailFailureReason }
  | { kind: 'settle-later' }
  | { kind: 'pay-but-lose-reply' }
  | { kind: 'fail-but-lose-reply'; reason: RailFailureReason }
  | { kind: 'unavailable-twice' }
  | { kind: 'pending-forever' };

/** How many submits of a `.44` reference are answered 503 before one is accepted. */
export const UNAVAILABLE_SUBMITS = 2;

export function scenarioFor(instruction: PayoutInstruction): Scenario {
  const paise = instruction.amountPaise % 100n;
  // The bank's front door is down before it looks at the beneficiary, so `.44` wins over a bad account.
  if (paise === 44n) return { kind: 'unavailable-twice' };
  if (instruction.mode === 'IMPS' && instruction.account.startsWith('0000')) {
    return { kind: 'fail', reason: 'INVALID_BENEFICIARY_ACCOUNT' };
  }
  if (instruction.mode === 'UPI' && instruction.account.toLowerCase().startsWith('invalid')) {
    return { kind: 'fail', reason: 'INVALID_UPI_ADDRESS' };
  }
  switch (paise) {
    case 11n:
      return { kind: 'fail', reason: 'DECLINED_BY_BENEFICIARY_BANK' };
    case 22n:
      return { kind: 'settle-later' };
    case 33n:
      return { kind: 'pay-but-lose-reply' };
    case 55n:
      return { kind: 'pending-forever' };
    case 77n:
      return { kind: 'fail-but-lose-reply', reason: 'DECLINED_BY_BENEFICIARY_BANK' };
    default:
      return { kind: 'pay' };
  }
}
