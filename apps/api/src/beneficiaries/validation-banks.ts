import type { BankSettings } from '@payout/config';
import { bankControlStates, type PrismaClient } from '@payout/db';
import type { BankControlState, PayoutMode } from '@payout/domain';
import type { AccountToValidate, BankRails, BeneficiaryValidation, RailAdapter } from '@payout/rails';

// Operators' holds are read at most this often: a pause reaches validation within a few seconds.
const CONTROLS_TTL_MS = 5_000;

/**
 * Which bank a beneficiary validation asks (docs/api.md, "Beneficiary validation"; docs/banks.md): the first
 * bank in configuration order that is enabled, serves the mode (IMPS for an account, UPI for an address) and
 * is not paused by an operator; failing all of that, the first bank serving the mode, then the first bank.
 * A validation moves no money, so any bank's answer will do; health-based routing is for payouts.
 */
export class ValidationBanks implements Pick<RailAdapter, 'validateAccount' | 'validateUpi'> {
  private controls: { at: number; states: Promise<Map<string, BankControlState>> } | undefined;

  constructor(
    private readonly db: PrismaClient,
    private readonly rails: BankRails<BankSettings>,
    private readonly now: () => number = Date.now,
  ) {}

  async validateAccount(account: AccountToValidate): Promise<BeneficiaryValidation> {
    return (await this.railFor('IMPS')).validateAccount(account);
  }

  async validateUpi(upi: string): Promise<BeneficiaryValidation> {
    return (await this.railFor('UPI')).validateUpi(upi);
  }

  private async railFor(mode: PayoutMode): Promise<RailAdapter> {
    const states = await this.controlStates();
    const serving = this.rails.banks.filter((bank) => bank.modes.includes(mode));
    const chosen =
      serving.find((bank) => bank.enabled && states.get(bank.name) !== 'PAUSED') ?? serving[0] ?? this.rails.banks[0]!;
    return this.rails.rail(chosen.name);
  }

  private controlStates(): Promise<Map<string, BankControlState>> {
    const now = this.now();
    if (!this.controls || now - this.controls.at > CONTROLS_TTL_MS) {
      // A database that cannot say counts as no hold: the validation still gets an answer.
      const states = bankControlStates(this.db).catch(() => new Map<string, BankControlState>());
      this.controls = { at: now, states };
    }
    return this.controls.states;
  }
}
