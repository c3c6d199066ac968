import { LRUCache } from 'lru-cache';
import type { BeneficiaryVerdict } from '@payout/contract';
import { AppError } from '@payout/domain';
import type { AccountToValidate, BeneficiaryValidation, RailAdapter } from '@payout/rails';
import type { Logger } from '@payout/telemetry';
import type { ValidationQuota } from './validation-quota.js';

export type { BeneficiaryVerdict };

export interface BeneficiaryValidatorOptions {
  /** How long a verdict on one beneficiary is reused before the rail is asked again. */
  cacheTtlMs: number;
  /** Most verdicts remembered at once (least recently asked about are forgotten first). */
  cacheMaxEntries?: number;
  /** Each merchant's validations per minute; none when absent. */
  quota?: ValidationQuota;
}

const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * Asks the rail whether a beneficiary exists (docs/api.md, "Beneficiary validation", says why
 * this is the one merchant call the API makes to a rail). Each merchant asks within its own quota per
 * minute (validation-quota.ts). Verdicts are cached for `cacheTtlMs` per merchant and beneficiary: a
 * merchant's repeated question costs no rail call, but no merchant is ever answered from another's
 * question — the cache would otherwise tell one merchant, by a fast answer, which accounts another has
 * been validating, and let it read registered names beyond its own quota. Questions of one merchant about
 * the same beneficiary in flight at once share one rail call. An answer the rail did not give (time-out,
 * 5xx) is never cached: it is a 503, and asking again is safe.
 */
export class BeneficiaryValidator {
  private readonly verdicts: LRUCache<string, BeneficiaryVerdict>;
  private readonly inFlight = new Map<string, Promise<BeneficiaryVerdict>>();
  private readonly quota: ValidationQuota | undefined;

  constructor(
    private readonly rail: Pick<RailAdapter, 'validateAccount' | 'validateUpi'>,
    options: BeneficiaryValidatorOptions,
  ) {
    this.verdicts = new LRUCache({ max: options.cacheMaxEntries ?? DEFAULT_MAX_ENTRIES, ttl: options.cacheTtlMs });
    this.quota = options.quota;
  }

  account(log: Logger, mid: string, account: AccountToValidate): Promise<BeneficiaryVerdict> {
    return this.verdict(log, mid, `account:${account.ifsc}:${account.account}`, () =>
      this.rail.validateAccount(account),
    );
  }

  upi(log: Logger, mid: string, upi: string): Promise<BeneficiaryVerdict> {
    // UPI addresses are case-insensitive: Asha@OKHDFC and asha@okhdfc are one beneficiary.
    return this.verdict(log, mid, `upi:${upi.toLowerCase()}`, () => this.rail.validateUpi(upi));
  }

  private async verdict(
    log: Logger,
    mid: string,
    beneficiary: string,
    ask: () => Promise<BeneficiaryValidation>,
  ): Promise<BeneficiaryVerdict> {
    await this.quota?.take(mid);
    // A MID never contains a space (isMid: letters, digits, _ and -), so no two merchants' keys can meet.
    const key = `${mid} ${beneficiary}`;
    const cached = this.verdicts.get(key);
    if (cached) return cached;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.askRail(log, key, ask).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async askRail(
    log: Logger,
    key: string,
    ask: () => Promise<BeneficiaryValidation>,
  ): Promise<BeneficiaryVerdict> {
    const answer = await ask();
    if (answer.outcome === 'UNKNOWN') {
      log.warn({ detail: answer.detail }, 'beneficiary validation: no answer from the rail');
      throw new AppError(
        'DEPENDENCY_UNAVAILABLE',
        'The bank could not be reached to validate the beneficiary. Please retry later.',
      );
    }
    const verdict: BeneficiaryVerdict =
      answer.outcome === 'VALID'
        ? { status: 'VALID', registeredName: answer.registeredName }
        : { status: 'INVALID', registeredName: '' };
    this.verdicts.set(key, verdict);
    return verdict;
  }
}
