import {
  PENDING_AGE_BANDS,
  checkInvariants,
  countPayoutsPastExpectedTime,
  readOperationsGauges,
  type PrismaClient,
} from '@payout/db';
import { inquiryDelayMs, type InquirySchedule, type InquirySchedules, type PayoutMode } from '@payout/domain';
import type { Logger, OperationsMetrics } from '@payout/telemetry';

interface OperationsWatchOptions {
  db: PrismaClient;
  metrics: OperationsMetrics;
  logger: Logger;
  schedules: InquirySchedules;
  /** How often the money invariants are checked. */
  reconcileIntervalMs: number;
  /** A pending payout whose next step is overdue by more than this is stuck (checkInvariants' no-stuck-payouts). */
  stuckAfterMs: number;
}

/**
 * What the worker tells Prometheus about the state of the books, for the alerts that page someone before a
 * merchant calls (docs/operations.md, "Alerts: what each means and what to do"): the backlog gauges, read
 * from PostgreSQL when /metrics is scraped, and the money invariants, checked on a timer because they read
 * whole tables. Every worker reports the same database-wide numbers; the rules take max() over workers.
 */
export class OperationsWatch {
  private readonly scheduleEndsAfterMs: Record<PayoutMode, number>;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Where the last count of overdue payouts ended: each count covers the deadlines passed since. */
  private overdueCountedUntil = new Date();

  constructor(private readonly options: OperationsWatchOptions) {
    this.scheduleEndsAfterMs = {
      UPI: scheduleEndsAfterMs(options.schedules.UPI),
      IMPS: scheduleEndsAfterMs(options.schedules.IMPS),
    };
    // Every mode's series exists from the start, so a first overdue payout is an increase Prometheus sees.
    for (const mode of Object.keys(this.scheduleEndsAfterMs)) options.metrics.payoutsOverdue.inc({ mode }, 0);
  }

  /** Reads the backlog gauges now (on each scrape). Every mode and age band is set, to 0 if it holds none. */
  async refresh(): Promise<void> {
    const reading = await readOperationsGauges(this.options.db, { scheduleEndsAfterMs: this.scheduleEndsAfterMs });
    const { metrics } = this.options;
    for (const mode of Object.keys(this.scheduleEndsAfterMs) as PayoutMode[]) {
      metrics.payoutsPendingPastSchedule.set({ mode }, reading.pastSchedule.find((p) => p.mode === mode)?.payouts ?? 0);
      for (const { age } of PENDING_AGE_BANDS) {
        const band = reading.pending.find((p) => p.mode === mode && p.age === age);
        metrics.payoutsPending.set({ mode, age }, band?.payouts ?? 0);
      }
    }
    metrics.payoutsManualReview.set(reading.manualReview);
    metrics.discrepanciesOpen.set(reading.openDiscrepancies);
    metrics.statementLastRunBreaks.set(reading.lastStatementBreaks);
    metrics.statementBreaksOpen.set(reading.openStatementBreaks);
    metrics.webhookEndpointsDisabled.set(reading.disabledWebhookEndpoints);
    metrics.breakGlassActions.set(reading.breakGlassActions);
    metrics.webhookDeliveriesFailing.set({ state: 'retrying' }, reading.retryingWebhookDeliveries);
    metrics.webhookDeliveriesFailing.set({ state: 'held' }, reading.heldWebhookDeliveries);
    metrics.postgresConnectionsInUse.set(reading.postgresConnections.inUse);
    metrics.postgresConnectionsMax.set(reading.postgresConnections.max);
    await this.countOverdue();
  }

  /**
   * Counts the payouts whose expected time (their mode's whole inquiry schedule, as for the past-schedule
   * gauge) passed since the last count while they were still pending: the payout-timeliness objective's bad
   * events (docs/operations.md, "Service level objectives"). The interval is taken before the query, so two
   * scrapes at once count disjoint intervals; a failed query gives its interval back.
   */
  private async countOverdue(): Promise<void> {
    const from = this.overdueCountedUntil;
    const to = new Date();
    this.overdueCountedUntil = to;
    try {
      const counted = await countPayoutsPastExpectedTime(this.options.db, {
        from,
        to,
        expectedAfterMs: this.scheduleEndsAfterMs,
      });
      for (const { mode, payouts } of counted) this.options.metrics.payoutsOverdue.inc({ mode }, payouts);
    } catch (error) {
      if (this.overdueCountedUntil === to) this.overdueCountedUntil = from;
      throw error;
    }
  }

  /** Checks the money invariants now, then every interval, until stopped. */
  start(): void {
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.checkInvariants().finally(next), this.options.reconcileIntervalMs);
      this.timer.unref();
    };
    void this.checkInvariants().finally(next);
  }

  /** Stops the timer. A check in flight is not waited for: it is read-only, and ends with the connections. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async checkInvariants(): Promise<void> {
    try {
      const report = await checkInvariants(this.options.db, { stuckAfterMs: this.options.stuckAfterMs, sampleSize: 0 });
      for (const check of report.checks)
        this.options.metrics.reconcileBreaches.set({ check: check.name }, check.breaches);
      this.options.metrics.reconcileLastSuccess.set(report.checkedAt.getTime() / 1000);
      const broken = report.checks.filter((c) => c.breaches > 0).map((c) => ({ check: c.name, breaches: c.breaches }));
      if (broken.length) this.options.logger.error({ broken }, 'money invariants broken: run `pnpm cli reconcile`');
    } catch (error) {
      // The timestamp stays where it was: "no successful check recently" pages if this goes on.
      if (!this.stopped)
        this.options.logger.warn({ err: (error as Error).message }, 'could not check the money invariants');
    }
  }
}

/**
 * How long after acceptance a mode's inquiry schedule has certainly run out: the first delay and every
 * spacing after it, each at its longest (full jitter, as the driver draws them: domain's inquiryDelayMs).
 */
function scheduleEndsAfterMs(schedule: InquirySchedule): number {
  const longest = () => 1;
  return (
    inquiryDelayMs('submit', schedule, longest) +
    (schedule.maxChecks - 1) * inquiryDelayMs('status-check', schedule, longest)
  );
}
