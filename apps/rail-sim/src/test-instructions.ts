import { newAckNo } from '@payout/domain';
import type { PayoutInstruction } from '@payout/rails';

// Instructions as the worker sends them, for the simulator's own tests: a fresh reference each time.

/** Where each mode pays the same beneficiary: an account with its branch for IMPS, a UPI address for UPI. */
const BENEFICIARY_ACCOUNT: Record<PayoutInstruction['mode'], Pick<PayoutInstruction, 'account' | 'ifsc'>> = {
  IMPS: { account: '123456789012', ifsc: 'HDFC0001234' },
  UPI: { account: 'asha@okbank' },
};

function instructionOf(mode: PayoutInstruction['mode']) {
  return (amountPaise: bigint, overrides: Partial<PayoutInstruction> = {}): PayoutInstruction => ({
    reference: newAckNo(),
    mode,
    amountPaise,
    ...BENEFICIARY_ACCOUNT[mode],
    beneficiaryName: 'Asha Rao',
    ...overrides,
  });
}

export const impsInstruction = instructionOf('IMPS');
export const upiInstruction = instructionOf('UPI');
