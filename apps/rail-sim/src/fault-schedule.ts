import type { BankFaultSetting, FaultSwitch, FaultWindow } from '@payout/config';

/** What is wrong with a bank at one moment (docs/rail-sim.md, "Faults"). */
export interface BankFaults {
  /** `unavailable`: every call of its API answers 503; `refused`: its port refuses connections. */
  down: false | 'unavailable' | 'refused';
  /** Added before every answer of its API, on top of the simulator's own latency. */
  latencyMs: number;
  /** Share of its API calls answered `errorStatus` before the bank looks at them. */
  errorRate: number;
  errorStatus: number;
  /** Its status API says NOT_FOUND for a reference accepted less than this long ago. */
  statusLagMs: number;
}

export const NO_FAULTS: Readonly<BankFaults> = {
  down: false,
  latencyMs: 0,
  errorRate: 0,
  errorStatus: 500,
  statusLagMs: 0,
};

/** The faults switched on at run time, and until when (epoch ms; unset: until switched again). */
interface RunTimeFaults {
  setting: BankFaultSetting;
  since: number;
  until?: number;
}

/** What `GET /sim/faults` shows: the faults now, and where they come from. */
export interface FaultReport {
  now: BankFaults;
  runTime: (BankFaultSetting & { since: string; until?: string }) | null;
  schedule: FaultWindow[];
  /** When the simulator started: the schedule's `atMs` count from here. */
  startedAt: string;
}

/** Each given member of `setting` over `faults`. */
function applied(faults: BankFaults, setting: BankFaultSetting): BankFaults {
  return {
    down: setting.down === undefined ? faults.down : setting.down === true ? 'unavailable' : setting.down,
    latencyMs: setting.latencyMs ?? faults.latencyMs,
    errorRate: setting.errorRate ?? faults.errorRate,
    errorStatus: setting.errorStatus ?? faults.errorStatus,
    statusLagMs: setting.statusLagMs ?? faults.statusLagMs,
  };
}

/** The faults a window or a switch sets, without its timing. */
function settingOf(entry: FaultWindow | FaultSwitch): BankFaultSetting {
  const { down, latencyMs, errorRate, errorStatus, statusLagMs } = entry;
  return Object.fromEntries(
    Object.entries({ down, latencyMs, errorRate, errorStatus, statusLagMs }).filter(([, v]) => v !== undefined),
  );
}

/**
 * One bank's faults over time: the schedule given at start (windows counted from `startedAt`, later windows
 * over earlier ones where both say something), and over them whatever was switched on at run time. Pure:
 * every question takes the moment it is about. The simulator asks {@link nextChangeAfter} to know when to
 * look again (a bank whose port must close or open again).
 */
export class FaultSchedule {
  #runTime: RunTimeFaults | undefined;

  constructor(
    readonly schedule: readonly FaultWindow[],
    readonly startedAt: number,
  ) {}

  /** The faults at `now`. */
  at(now: number): BankFaults {
    let faults: BankFaults = { ...NO_FAULTS };
    const elapsed = now - this.startedAt;
    for (const window of this.schedule) {
      if (elapsed >= window.atMs && (window.forMs === undefined || elapsed < window.atMs + window.forMs)) {
        faults = applied(faults, settingOf(window));
      }
    }
    const runTime = this.#activeRunTime(now);
    return runTime ? applied(faults, runTime.setting) : faults;
  }

  /** From `now`, the faults are exactly `change` over the schedule, for `forMs` if given; `{}` clears them. */
  switchTo(change: FaultSwitch, now: number): void {
    const setting = settingOf(change);
    this.#runTime =
      Object.keys(setting).length === 0
        ? undefined
        : { setting, since: now, ...(change.forMs !== undefined && { until: now + change.forMs }) };
  }

  /** The first moment after `now` at which the faults may change by themselves; undefined when none will. */
  nextChangeAfter(now: number): number | undefined {
    const moments = this.schedule.flatMap((w) =>
      w.forMs === undefined ? [this.startedAt + w.atMs] : [this.startedAt + w.atMs, this.startedAt + w.atMs + w.forMs],
    );
    const until = this.#activeRunTime(now)?.until;
    if (until !== undefined) moments.push(until);
    const later = moments.filter((moment) => moment > now);
    return later.length === 0 ? undefined : Math.min(...later);
  }

  /**
   * Whether a call of the bank's API at `now` is answered with a 5xx before the bank looks at it: `roll`
   * is a uniform draw in [0, 1).
   */
  failsCall(now: number, roll: number): number | undefined {
    const faults = this.at(now);
    return faults.errorRate > 0 && roll < faults.errorRate ? faults.errorStatus : undefined;
  }

  report(now: number): FaultReport {
    const runTime = this.#activeRunTime(now);
    return {
      now: this.at(now),
      runTime: runTime
        ? {
            ...runTime.setting,
            since: new Date(runTime.since).toISOString(),
            ...(runTime.until !== undefined && { until: new Date(runTime.until).toISOString() }),
          }
        : null,
      schedule: [...this.schedule],
      startedAt: new Date(this.startedAt).toISOString(),
    };
  }

  #activeRunTime(now: number): RunTimeFaults | undefined {
    const runTime = this.#runTime;
    return runTime && (runTime.until === undefined || now < runTime.until) ? runTime : undefined;
  }
}
