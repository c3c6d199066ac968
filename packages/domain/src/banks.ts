import type { PayoutMode } from './payout-state.js';

/**
 * Sponsor banks as the rest of the domain speaks of them (docs/banks.md). A bank is known by its alias — the
 * name in the `BANKS` setting — which payouts record and merchants may see (CONTRACT.md, "Several banks").
 */
export type BankName = string;

/** What one call to a bank came to, as its health window counts it. */
export const BANK_OUTCOMES = ['PAID', 'REFUSED', 'TECHNICAL', 'TIMEOUT'] as const;
export type BankOutcome = (typeof BANK_OUTCOMES)[number];

/**
 * An operator's hold on a bank: ACTIVE routes as health says; DRAINING routes no new payout to it while those
 * it holds are still asked about; PAUSED also stops every call to it until it is made ACTIVE again. No money
 * moves either way, so one person may change it (audited).
 */
export const BANK_CONTROL_STATES = ['ACTIVE', 'DRAINING', 'PAUSED'] as const;
export type BankControlState = (typeof BANK_CONTROL_STATES)[number];

/** A downtime as merchants are told of it: DOWN when routing has eliminated the bank for the mode, DEGRADED below par. */
export const DOWNTIME_STATUSES = ['DOWN', 'DEGRADED'] as const;
export type DowntimeStatus = (typeof DOWNTIME_STATUSES)[number];

export interface BankDowntime {
  bank: BankName;
  mode: PayoutMode;
  status: DowntimeStatus;
  since: Date;
}

/** Why routing chose a bank for a payout: stored with the payout and shown in its story. */
export const ROUTING_REASONS = ['only-bank', 'pinned', 'best-score', 'weighted-share', 'probe', 'failover'] as const;
export type RoutingReason = (typeof ROUTING_REASONS)[number];

/** One routing decision: the bank, its score then (0..1, null while it has too few outcomes to score), and why. */
export interface RoutingDecision {
  bank: BankName;
  score: number | null;
  reason: RoutingReason;
  /** ISO time of the decision. */
  at: string;
}
