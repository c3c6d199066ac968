import { DEFAULT_BANK_NAME } from '@payout/config';
import type { BankRoute, BankRoutes } from '@payout/db';
import {
  describeRouting,
  isServing,
  mayCallBank,
  routePayout,
  DEFAULT_ROUTING_SETTINGS,
  type BankLandscape,
  type BankName,
  type PayoutMode,
  type Routing,
  type RoutingSettings,
} from '@payout/domain';
import type { RailAdapter } from '@payout/rails';

const MODES: readonly PayoutMode[] = ['IMPS', 'UPI'];

/** What the payout driver asks of the banks: each one's rail, and routing's word on them (docs/banks.md). */
export interface DriverBanks {
  /** Settles once routing has its first view of the banks (their controls and health). */
  readonly ready: Promise<void>;
  /** The bank of a payout sent before payouts recorded their bank: the first configured. */
  readonly defaultBank: BankName;
  /** The rail of one bank (its calls counted, rate-limited and, for submits, scored). */
  rail(bank: BankName): RailAdapter;
  /** The routes of a first submit, decided now for each mode and each bank a merchant may be pinned to. */
  routes(now: Date): BankRoutes;
  /** Where a payout goes after `from` said definitively it did not pay it (a hold: nowhere now). */
  failover(mode: PayoutMode, from: BankName, pinnedBank: BankName | null, now: Date): Routing;
  /** Whether routing still sends new payouts of `mode` to `bank`, by the cached view. */
  serving(bank: BankName, mode: PayoutMode): boolean;
  /** The same, read afresh from PostgreSQL (for a decision that must not rest on a view a second old). */
  servingNow(bank: BankName, mode: PayoutMode): Promise<boolean>;
  /** Whether `bank` may be called at all (PAUSED: no). */
  callable(bank: BankName): boolean;
}

/** The note of the event that sends a payout to a bank. */
export function sendingNote(decision: Extract<Routing, { kind: 'route' }>['decision']): string {
  return `sending the instruction to the rail: ${describeRouting(decision)}`;
}

function route(routing: Routing, note = sendingNote): BankRoute {
  return routing.kind === 'route'
    ? { decision: routing.decision, reason: note(routing.decision) }
    : { hold: routing.why.replaceAll('-', ' ') };
}

/**
 * The banks as the worker routes among them: routing's rules (packages/domain/src/bank-routing.ts) over the
 * worker's cached view of controls and health, with a random number per decision.
 */
export class RoutedBanks implements DriverBanks {
  readonly defaultBank: BankName;
  readonly ready: Promise<void>;
  /** When this worker last chose each bank for a probe, per mode: routing spaces its probes. */
  private readonly probedAt = new Map<PayoutMode, Map<BankName, number>>(MODES.map((mode) => [mode, new Map()]));

  constructor(
    private readonly options: {
      rails: { rail(bank: BankName): RailAdapter };
      view: { readonly landscape: BankLandscape; readonly ready?: Promise<void>; refresh?(): Promise<void> };
      settings: RoutingSettings;
      random?: () => number;
    },
  ) {
    this.defaultBank = options.view.landscape.banks[0]?.name ?? DEFAULT_BANK_NAME;
    this.ready = options.view.ready ?? Promise.resolve();
  }

  rail(bank: BankName): RailAdapter {
    return this.options.rails.rail(bank);
  }

  routes(now: Date): BankRoutes {
    const landscape = this.options.view.landscape;
    const random = this.options.random ?? Math.random;
    const decide = (mode: PayoutMode, pinnedBank: BankName | null) => {
      const probedAt = this.probedAt.get(mode)!;
      const routing = routePayout({ mode, pinnedBank, now, random, probedAt }, landscape, this.options.settings);
      // A probe chosen counts from now, used or not: of the routes offered, the claim takes its payout's own.
      if (routing.kind === 'route' && routing.decision.reason === 'probe')
        probedAt.set(routing.decision.bank, now.getTime());
      return route(routing);
    };
    const routes = Object.fromEntries(MODES.map((mode) => [mode, decide(mode, null)]));
    // With one bank a pin changes nothing: the claim need not look the merchant up.
    const pinned =
      landscape.banks.length > 1
        ? Object.fromEntries(
            landscape.banks.map((bank) => [
              bank.name,
              Object.fromEntries(bank.modes.map((mode) => [mode, decide(mode, bank.name)])),
            ]),
          )
        : null;
    return { routes, pinned };
  }

  failover(mode: PayoutMode, from: BankName, pinnedBank: BankName | null, now: Date): Routing {
    return routePayout(
      { mode, pinnedBank, failoverFrom: from, now, random: this.options.random ?? Math.random },
      this.options.view.landscape,
      this.options.settings,
    );
  }

  serving(bank: BankName, mode: PayoutMode): boolean {
    return isServing(this.options.view.landscape, bank, mode);
  }

  async servingNow(bank: BankName, mode: PayoutMode): Promise<boolean> {
    await this.options.view.refresh?.();
    return this.serving(bank, mode);
  }

  callable(bank: BankName): boolean {
    return mayCallBank(this.options.view.landscape, bank);
  }
}

/**
 * One bank behind one rail adapter, always serving: a driver built by hand around a single rail (a test's
 * stub bank) routes exactly as a deployment with one bank does.
 */
export function oneBank(rail: RailAdapter, name: BankName = DEFAULT_BANK_NAME): DriverBanks {
  return new RoutedBanks({
    rails: { rail: () => rail },
    view: {
      landscape: {
        banks: [{ name, modes: MODES, weight: 1, enabled: true }],
        controls: new Map(),
        health: new Map(),
      },
    },
    settings: DEFAULT_ROUTING_SETTINGS,
  });
}

/** The routing settings of a worker's configuration. */
export function routingSettingsOf(config: {
  ROUTING_MIN_OUTCOMES: number;
  ROUTING_ELIMINATE_BELOW: number;
  ROUTING_RECOVER_AT: number;
  ROUTING_RECOVER_MIN_OUTCOMES: number;
  ROUTING_PROBE_SHARE: number;
  ROUTING_PROBE_INTERVAL_MS: number;
  ROUTING_SHARE_MARGIN: number;
  ROUTING_DOWN_AFTER_FAILURES: number;
  ROUTING_DOWN_AFTER_MS: number;
}): RoutingSettings {
  return {
    minOutcomes: config.ROUTING_MIN_OUTCOMES,
    eliminateBelow: config.ROUTING_ELIMINATE_BELOW,
    recoverAt: config.ROUTING_RECOVER_AT,
    recoverMinOutcomes: config.ROUTING_RECOVER_MIN_OUTCOMES,
    probeShare: config.ROUTING_PROBE_SHARE,
    probeIntervalMs: config.ROUTING_PROBE_INTERVAL_MS,
    shareMargin: config.ROUTING_SHARE_MARGIN,
    downAfterFailures: config.ROUTING_DOWN_AFTER_FAILURES,
    downAfterMs: config.ROUTING_DOWN_AFTER_MS,
  };
}
