/**
 * Who the simulated bank says holds an account or a UPI address (a penny-less validation). Magic values,
 * documented in docs/rail-sim.md ("Beneficiary validation"), make it answer each way on purpose.
 */
export type ValidationScenario =
  | { kind: 'valid'; registeredName: string }
  | { kind: 'invalid' }
  /** The reply is held back, as a bank that does not answer in time. */
  | { kind: 'time-out' };

/** The name the bank holds for every ordinary beneficiary. */
export const REGISTERED_NAME = 'ASHA KUMAR';
/** The name it holds for the "name differs" magic values. */
export const OTHER_REGISTERED_NAME = 'RAVI SHARMA';

/** An account: `0000…` does not exist (as for payouts), `…2222` is someone else's, `…3333` times out. */
export function accountScenario(account: string): ValidationScenario {
  if (account.startsWith('0000')) return { kind: 'invalid' };
  if (account.endsWith('3333')) return { kind: 'time-out' };
  if (account.endsWith('2222')) return { kind: 'valid', registeredName: OTHER_REGISTERED_NAME };
  return { kind: 'valid', registeredName: REGISTERED_NAME };
}

/** A UPI address, by its name part: `invalid…` does not exist (as for payouts), `othername…`, `timeout…`. */
export function upiScenario(upi: string): ValidationScenario {
  const name = upi.toLowerCase();
  if (name.startsWith('invalid')) return { kind: 'invalid' };
  if (name.startsWith('timeout')) return { kind: 'time-out' };
  if (name.startsWith('othername')) return { kind: 'valid', registeredName: OTHER_REGISTERED_NAME };
  return { kind: 'valid', registeredName: REGISTERED_NAME };
}
