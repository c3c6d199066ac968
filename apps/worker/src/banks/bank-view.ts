import type { BankSettings } from '@payout/config';
import { bankControlStates, listBankHealth, type PrismaClient } from '@payout/db';
import { healthKey, type BankHealth, type BankLandscape, type BankName } from '@payout/domain';
import type { Logger, RoutingMetrics } from '@payout/telemetry';

/**
 * Each worker's view of the banks for routing (docs/banks.md, "Routing"): the operators' controls and the
 * health the scorer last wrote, read from PostgreSQL on a timer — never on a payout's path, which reads only
 * this cache. The routing gauges are set from it, so every worker reports the same figures.
 */
export class BankView {
  private current: BankLandscape;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Settles once the first reading is done (or failed): routing waits for it, the worker's start does not. */
  readonly ready: Promise<void>;
  private markReady!: () => void;

  constructor(
    private readonly options: {
      db: PrismaClient;
      banks: readonly BankSettings[];
      refreshMs: number;
      logger: Logger;
      metrics?: RoutingMetrics;
      /** Told when an operator's pause of a bank ends (resumed or draining: it may be called again). */
      onResumed?: (bank: BankName) => void;
    },
  ) {
    this.current = { banks: options.banks, controls: new Map(), health: new Map() };
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  get landscape(): BankLandscape {
    return this.current;
  }

  private reading: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  /**
   * Reads the controls and the health now; on failure the last view stays. A reading under way may have
   * begun before the caller's reason to ask, so the caller gets the next one — shared by everyone who asks
   * meanwhile (many payouts may ask at once during an outage).
   */
  refresh(): Promise<void> {
    if (!this.reading) {
      this.reading = this.read().finally(() => (this.reading = undefined));
      return this.reading;
    }
    this.queued ??= this.reading.then(() => {
      this.queued = undefined;
      return this.refresh();
    });
    return this.queued;
  }

  private async read(): Promise<void> {
    try {
      const [controls, rows] = await Promise.all([bankControlStates(this.options.db), listBankHealth(this.options.db)]);
      const health = new Map<string, BankHealth>(
        rows.map((row) => [healthKey(row.bank, row.mode), { score: row.score, eliminated: row.eliminated }]),
      );
      const before = this.current.controls;
      this.current = { banks: this.options.banks, controls, health };
      this.publish();
      for (const [bank, state] of before)
        if (state === 'PAUSED' && controls.get(bank) !== 'PAUSED') this.options.onResumed?.(bank);
    } catch (error) {
      this.options.logger.warn(
        { err: (error as Error).message },
        'could not read the banks’ health and controls; routing keeps its last view',
      );
    }
  }

  /** Reads now (without waiting: see {@link ready}), then on a timer until stopped. */
  start(): void {
    void this.refresh().finally(() => this.markReady());
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.refresh().finally(() => {
          if (!this.stopped) tick();
        });
      }, this.options.refreshMs);
      this.timer.unref();
    };
    tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private publish(): void {
    const metrics = this.options.metrics;
    if (!metrics) return;
    for (const bank of this.options.banks) {
      for (const mode of bank.modes) {
        const health = this.current.health.get(healthKey(bank.name, mode));
        const labels = { bank: bank.name, mode };
        if (health?.score === null || health === undefined) metrics.bankHealthScore.remove(labels);
        else metrics.bankHealthScore.set(labels, health.score);
        metrics.bankEliminated.set(labels, health?.eliminated ? 1 : 0);
      }
    }
  }
}
