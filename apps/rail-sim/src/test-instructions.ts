import { newAckNo } from '@payout/domain';
import type { PayoutInstruction } from '@payout/rails';

// Instructions as the worker sends them, for the simulator's own tests: a fresh reference each time.

export function impsInstruction(amountPaise: bigint, overrides: Partial<PayoutInstruction> = {}): PayoutInstruction {
  return {
    reference: newAckNo(),
    mode: 'IMPS',
    amountPaise,
    account: '123456789012',
    ifsc: 'HDFC0001234',
    beneficiaryName: 'Asha Rao',
    ...overrides,
  };
}

export function upiInstruction(amountPaise: bigint, overrides: Partial<PayoutInstruction> = {}): PayoutInstruction {
  return {
    reference: newAckNo(),
    mode: 'UPI',
    amountPaise,
    account: 'asha@okbank',
    beneficiaryName: 'Asha Rao',
    ...overrides,
  };
}
