import type { BankControlState, BankName, BankOutcome, RoutingDecision, RoutingReason } from './banks.js';
import type { PayoutMode, RailFailureReason } from './payout-state.js';
import type { RailAnswer } from './rail-outcome.js';

/**
 * Routing by health (docs/banks.md, "Routing"): each bank is scored per mode from the outcomes of its recent
 * submits (a sliding window shared by every worker); a bank scoring below a threshold is eliminated for the
 * mode and gets only a small hedge of probe traffic until it scores well again (a higher threshold:
 * hysteresis, so a bank at the edge does not flap); the others share new payouts, the best first, with
 * their weights among those within a margin of the best. A merchant may be pinned to one bank. An operator
 * may pause or drain a bank, and `enabled: false` takes it out of routing. Pure: the worker brings the
 * scores, the controls and a random number.
 */

export interface RoutingSettings {
  /** Outcomes a window must hold before the bank is scored (below, its score is null and it is not judged). */
  minOutcomes: number;
  /** A scored bank below this is eliminated for the mode. */
  eliminateBelow: number;
  /** An eliminated bank is back at or above this… */
  recoverAt: number;
  /** …over at least this many outcomes (its probes). */
  recoverMinOutcomes: number;
  /** Share (0..1) of new payouts sent to an eliminated bank as probes, so its recovery is seen… */
  probeShare: number;
  /**
   * …but no more than one probe per bank and mode in this long from one worker: a probe of a bank that is still
   * down leaves its payout undecided until the bank answers again, so at volume a share alone would leave
   * hundreds a minute waiting.
   */
  probeIntervalMs: number;
  /** Banks scoring within this of the best share new payouts by weight. */
  shareMargin: number;
  /** A bank whose newest submits are this many failures in a row is down, whatever its older answers… */
  downAfterFailures: number;
  /** …or whose newest failures in a row (two at least) began this long ago, nothing healthy since: low traffic. */
  downAfterMs: number;
}

export const DEFAULT_ROUTING_SETTINGS: RoutingSettings = {
  minOutcomes: 20,
  eliminateBelow: 0.5,
  recoverAt: 0.8,
  recoverMinOutcomes: 5,
  probeShare: 0.05,
  probeIntervalMs: 1_000,
  shareMargin: 0.05,
  downAfterFailures: 10,
  downAfterMs: 15_000,
};

/** A bank's window for one mode: how its recent submits came out. */
export interface OutcomeCounts {
  paid: number;
  refused: number;
  technical: number;
  timeouts: number;
}

export const NO_OUTCOMES: OutcomeCounts = { paid: 0, refused: 0, technical: 0, timeouts: 0 };

/**
 * The newest stretch of a bank's window, read second by second from the latest back: its failures in a row
 * (technical errors and time-outs, nothing else answered in those seconds) and how long they have lasted —
 * from the first of them until now, since nothing healthy has come back meanwhile — or its answers in a row
 * without a failure.
 */
export interface RecentRun {
  failures: number;
  failingForMs: number;
  /** Submits the bank did its work on, in a row (it took the payout, or passed on the beneficiary's no). */
  healthy: number;
}

export const NO_RUN: RecentRun = { failures: 0, failingForMs: 0, healthy: 0 };

/**
 * The newest run of a window's seconds (each second's counts, any order) as of the second `now`: walking back
 * from the latest, the seconds with failures only, or the seconds without a failure. A second holding both
 * ends either run. A refusal (4xx) is the bank answering, so it ends a failing run, but it is no work done:
 * it counts in no run. A failing run lasts until now, not until its last failure: once a bank's failures
 * lower its score, routing sends it less, and a bank nobody sends to does not stop being down.
 */
export function recentRun(seconds: readonly { second: number; counts: OutcomeCounts }[], now: number): RecentRun {
  const newestFirst = [...seconds].sort((a, b) => b.second - a.second);
  const failed = (c: OutcomeCounts) => c.technical + c.timeouts;
  const first = newestFirst[0];
  if (!first) return NO_RUN;
  if (failed(first.counts) > 0 && first.counts.paid + first.counts.refused === 0) {
    let failures = 0;
    let oldest = first.second;
    for (const { second, counts } of newestFirst) {
      if (counts.paid + counts.refused > 0) break;
      failures += failed(counts);
      oldest = second;
    }
    return { failures, failingForMs: Math.max(0, now - oldest) * 1000, healthy: 0 };
  }
  let healthy = 0;
  for (const { counts } of newestFirst) {
    if (failed(counts) > 0) break;
    healthy += counts.paid;
  }
  return { failures: 0, failingForMs: 0, healthy };
}

/** A bank's health for one mode as routing reads it. */
export interface BankHealth {
  /** 0..1, null while too few outcomes to judge. */
  score: number | null;
  eliminated: boolean;
}

/**
 * The bank's score and whether it is eliminated, from its window (counted since its standing last changed)
 * and whether it was eliminated before: the share of outcomes where the bank did its work. Eliminated below
 * `eliminateBelow`; back only at `recoverAt` or better over at least `recoverMinOutcomes` (while eliminated
 * it sees only probes, so fewer outcomes are enough to judge its recovery). A window with too few outcomes
 * changes nothing by its share.
 *
 * A hard outage is judged by the newest run, not the share (docs/banks.md, "Routing"): nothing but failures
 * for `downAfterFailures` submits in a row, or two or more failures in a row and nothing healthy for
 * `downAfterMs` since the first, eliminates the bank however healthy its older answers were — low traffic
 * counts failures, not shares. An
 * eliminated bank whose newest `recoverMinOutcomes` submits all did their work is back at once.
 */
export function assessBankHealth(
  counts: OutcomeCounts,
  wasEliminated: boolean,
  settings: RoutingSettings,
  run: RecentRun = NO_RUN,
): BankHealth {
  const total = counts.paid + counts.refused + counts.technical + counts.timeouts;
  const needed = wasEliminated ? Math.min(settings.recoverMinOutcomes, settings.minOutcomes) : settings.minOutcomes;
  const score = total >= Math.max(1, needed) ? counts.paid / total : null;
  const plainlyDown =
    run.failures >= settings.downAfterFailures || (run.failures >= 2 && run.failingForMs >= settings.downAfterMs);
  if (!wasEliminated && plainlyDown) return { score, eliminated: true };
  if (wasEliminated && run.healthy >= settings.recoverMinOutcomes) return { score, eliminated: false };
  if (score === null) return { score: null, eliminated: wasEliminated };
  const eliminated = wasEliminated ? score < settings.recoverAt : score < settings.eliminateBelow;
  return { score, eliminated };
}

/** Failure reasons that say the bank did its work (the beneficiary's side said no), not that it failed. */
const BENEFICIARY_DECISIONS: readonly RailFailureReason[] = [
  'INVALID_BENEFICIARY_ACCOUNT',
  'INVALID_UPI_ADDRESS',
  'DECLINED_BY_BENEFICIARY_BANK',
];

/**
 * What one submit's answer counts as in its bank's window. The bank worked when it took the payout (PENDING,
 * SUCCESS, REVERSED) or passed on the beneficiary's side's no (an invalid account, a declining beneficiary
 * bank: the bank is fine); it REFUSED when it turned the instruction away (a 4xx, or FAILED as rejected by
 * the rail); TIMEOUT when no reply came in time; TECHNICAL for a 5xx, a lost connection or an unreadable reply.
 * A status check's answer is not counted: routing judges whether a bank takes new payouts.
 */
export function bankOutcomeOf(answer: RailAnswer, timedOut: boolean): BankOutcome {
  switch (answer.outcome) {
    case 'SUCCESS':
    case 'PENDING':
    case 'REVERSED':
      return 'PAID';
    case 'FAILED':
      return BENEFICIARY_DECISIONS.includes(answer.reason) ? 'PAID' : 'REFUSED';
    case 'REFUSED':
      return 'REFUSED';
    case 'NOT_FOUND':
      return 'TECHNICAL';
    case 'UNKNOWN':
      return timedOut ? 'TIMEOUT' : 'TECHNICAL';
  }
}

/** Adds one outcome to a window's counts. */
export function countOutcome(counts: OutcomeCounts, outcome: BankOutcome, n = 1): OutcomeCounts {
  switch (outcome) {
    case 'PAID':
      return { ...counts, paid: counts.paid + n };
    case 'REFUSED':
      return { ...counts, refused: counts.refused + n };
    case 'TECHNICAL':
      return { ...counts, technical: counts.technical + n };
    case 'TIMEOUT':
      return { ...counts, timeouts: counts.timeouts + n };
  }
}

/** A configured bank as routing needs it (BANKS, docs/banks.md). */
export interface RoutableBank {
  name: BankName;
  modes: readonly PayoutMode[];
  weight: number;
  enabled: boolean;
}

/** Everything routing knows of the banks at one moment. */
export interface BankLandscape {
  banks: readonly RoutableBank[];
  /** Operator holds; a bank not in the map is ACTIVE. */
  controls: ReadonlyMap<BankName, BankControlState>;
  /** Health per bank and mode ({@link healthKey}); a bank not in the map is unscored and not eliminated. */
  health: ReadonlyMap<string, BankHealth>;
}

export function healthKey(bank: BankName, mode: PayoutMode): string {
  return `${bank}:${mode}`;
}

export interface RoutingRequest {
  mode: PayoutMode;
  /** The bank the payout's merchant is pinned to, if any. */
  pinnedBank?: BankName | null;
  /** A move after the payout's bank said definitively it did not pay it: that bank is left out. */
  failoverFrom?: BankName;
  now: Date;
  /** Uniform in [0, 1); injected so a decision can be replayed. */
  random: () => number;
  /** When this worker last sent a probe of the request's mode to each bank (ms since the epoch). */
  probedAt?: ReadonlyMap<BankName, number>;
}

/** Where a new payout goes: a bank, or nowhere for now (held, reserved and unsent, docs/banks.md "Holding"). */
export type Routing =
  | { kind: 'route'; decision: RoutingDecision }
  | { kind: 'hold'; why: 'no-bank-serves-the-mode' | 'pinned-bank-not-serving' };

/**
 * Chooses a bank for a payout:
 *
 * 1. Only banks that are enabled, serve the mode and are ACTIVE are candidates (DRAINING and PAUSED take no
 *    new payout); a failover leaves out the bank the payout leaves.
 * 2. A pinned merchant's payout goes to its bank while that bank is a candidate and not eliminated; while it
 *    is eliminated, only as a probe; otherwise it waits for its bank (held), never another bank — a pin is
 *    the merchant's choice of bank, and a held payout fails after the hold window with BANK_DOWNTIME, which
 *    is safe to retry. A pin to a bank that does not serve the mode (or is not configured) is no pin for it.
 * 3. With one bank serving the mode there is nowhere else to go: it is the only bank, whatever its score.
 * 4. Otherwise, a share `probeShare` of new payouts probes an eliminated candidate (not a failover: a payout
 *    already refused once goes to a bank known to work), each bank at most once per `probeIntervalMs`; the rest go to the best-scoring candidate not
 *    eliminated, shared by weight among those within `shareMargin` of the best (an unscored bank counts as
 *    perfect until it has enough outcomes). With none left: held.
 */
export function routePayout(request: RoutingRequest, landscape: BankLandscape, settings: RoutingSettings): Routing {
  const { mode, now, random } = request;
  const decision = (bank: BankName, reason: RoutingReason): Routing => ({
    kind: 'route',
    decision: {
      bank,
      score: healthOf(landscape, bank, mode).score,
      reason: request.failoverFrom !== undefined ? 'failover' : reason,
      at: now.toISOString(),
    },
  });
  const servingMode = landscape.banks.filter((b) => b.enabled && b.modes.includes(mode));
  const candidates = servingMode.filter(
    (b) => controlOf(landscape, b.name) === 'ACTIVE' && b.name !== request.failoverFrom,
  );
  // Elimination means something only where another bank could take the traffic.
  const judged = servingMode.length > 1;
  const eliminated = (bank: BankName) => judged && healthOf(landscape, bank, mode).eliminated;
  const mayProbe = (bank: BankName) =>
    request.failoverFrom === undefined &&
    now.getTime() - (request.probedAt?.get(bank) ?? -Infinity) >= settings.probeIntervalMs;

  const pinned = request.pinnedBank ? servingMode.find((b) => b.name === request.pinnedBank) : undefined;
  if (pinned) {
    if (!candidates.includes(pinned)) return { kind: 'hold', why: 'pinned-bank-not-serving' };
    if (!eliminated(pinned.name)) return decision(pinned.name, 'pinned');
    if (mayProbe(pinned.name) && random() < settings.probeShare) return decision(pinned.name, 'probe');
    return { kind: 'hold', why: 'pinned-bank-not-serving' };
  }

  if (candidates.length === 0) return { kind: 'hold', why: 'no-bank-serves-the-mode' };
  if (!judged) return decision(candidates[0]!.name, 'only-bank');

  const down = candidates.filter((b) => eliminated(b.name) && mayProbe(b.name));
  const up = candidates.filter((b) => !eliminated(b.name));
  if (down.length > 0 && random() < settings.probeShare) {
    return decision(down[Math.min(down.length - 1, Math.floor(random() * down.length))]!.name, 'probe');
  }
  if (up.length === 0) return { kind: 'hold', why: 'no-bank-serves-the-mode' };

  const effective = (b: RoutableBank) => healthOf(landscape, b.name, mode).score ?? 1;
  const best = Math.max(...up.map(effective));
  const contenders = up.filter((b) => effective(b) >= best - settings.shareMargin);
  if (contenders.length === 1) return decision(contenders[0]!.name, 'best-score');
  const totalWeight = contenders.reduce((sum, b) => sum + b.weight, 0);
  if (totalWeight <= 0) return decision(contenders.find((b) => effective(b) === best)!.name, 'best-score');
  let point = random() * totalWeight;
  for (const bank of contenders) {
    point -= bank.weight;
    if (point < 0) return decision(bank.name, 'weighted-share');
  }
  return decision(contenders.filter((b) => b.weight > 0).at(-1)!.name, 'weighted-share');
}

/**
 * Whether routing would still send new payouts of `mode` to `bank`: configured, enabled, serving the mode,
 * ACTIVE, and not eliminated (elimination counts only where another bank serves the mode). A payout whose
 * bank no longer serves may move to another bank after that bank's definitive no (bank-handoff.ts).
 */
export function isServing(landscape: BankLandscape, bank: BankName, mode: PayoutMode): boolean {
  const servingMode = landscape.banks.filter((b) => b.enabled && b.modes.includes(mode));
  const settings = servingMode.find((b) => b.name === bank);
  if (!settings || controlOf(landscape, bank) !== 'ACTIVE') return false;
  return servingMode.length === 1 || !healthOf(landscape, bank, mode).eliminated;
}

/** Whether the bank may be called at all: an operator's PAUSED stops every call until it is ACTIVE again. */
export function mayCallBank(landscape: BankLandscape, bank: BankName): boolean {
  return controlOf(landscape, bank) !== 'PAUSED';
}

function controlOf(landscape: BankLandscape, bank: BankName): BankControlState {
  return landscape.controls.get(bank) ?? 'ACTIVE';
}

function healthOf(landscape: BankLandscape, bank: BankName, mode: PayoutMode): BankHealth {
  return landscape.health.get(healthKey(bank, mode)) ?? { score: null, eliminated: false };
}

const REASON_TEXT: Record<RoutingReason, string> = {
  'only-bank': 'the only bank for the mode',
  pinned: "the merchant's pinned bank",
  'best-score': 'the best score',
  'weighted-share': 'its weighted share among the best',
  probe: 'a probe of an eliminated bank',
  failover: 'failover after the previous bank said it did not pay it',
};

/** A routing decision as a payout's event note tells it: the bank, why, and its score then. */
export function describeRouting(decision: RoutingDecision): string {
  const score = decision.score === null ? 'not yet scored' : `score ${decision.score.toFixed(2)}`;
  return `bank ${decision.bank} (${REASON_TEXT[decision.reason]}; ${score})`;
}
