import path from 'node:path';
import { journalOf, simulatedAccountAt } from '@payout/config';
import { AppProcess } from '../../test/support/app-process.js';
import { freePort } from '../../test/support/private-redis.js';
import type { PlannedFault } from './fault-schedule.js';
import type { SoakServices } from './soak-services.js';

type AppName = 'api' | 'worker' | 'rail-sim';

// Worker timings for a run measured in minutes: a lost job is found within seconds, an undecided payout
// is asked about again within a second or two, and a killed worker's jobs move on after its lock expires.
const WORKER_ENV = {
  WORKER_CONCURRENCY: '20',
  RAIL_CONNECT_TIMEOUT_MS: '300',
  RAIL_RESPONSE_TIMEOUT_MS: '1000',
  INQUIRY_UPI_FIRST_DELAY_MS: '250',
  INQUIRY_UPI_SPACING_MS: '1000',
  INQUIRY_UPI_MAX_CHECKS: '60',
  INQUIRY_IMPS_FIRST_DELAY_MS: '250',
  INQUIRY_IMPS_SPACING_MS: '1000',
  INQUIRY_IMPS_MAX_CHECKS: '60',
  RAIL_NOT_FOUND_TRUSTED_AFTER_MS: '8000',
  INQUIRY_DEADLINE_MS: '3600000',
  SWEEP_INTERVAL_MS: '1000',
  SWEEP_GRACE_MS: '1000',
  JOB_LOCK_MS: '3000',
  SHUTDOWN_GRACE_MS: '3000',
  HEALTH_PORT: '0',
};

/**
 * Routing among two banks at the soak's pace (docs/banks.md, "Settings"): scores refreshed twice a second, a
 * held payout looking for a bank every second, a health window short enough to see a bank come back within
 * the run. A payout the primary took before it went down stays with it (never two banks), asked about until
 * it answers: its status checks here span five minutes, longer than the primary's two-minute downtime, as
 * production's schedules (90 minutes for IMPS) outlast a bank's usual downtime; the soak's one-minute
 * schedule above would send those payouts to manual review while the bank is still down.
 */
const TWO_BANK_WORKER_ENV = {
  ROUTING_REFRESH_MS: '500',
  ROUTING_HOLD_RETRY_MS: '1000',
  ROUTING_WINDOW_MS: '15000',
  INQUIRY_UPI_MAX_CHECKS: '300',
  INQUIRY_IMPS_MAX_CHECKS: '300',
};

/** One simulated bank of the run: its alias, where it answers, its journal and the modes it serves. */
export interface SoakBank {
  name: string;
  url: string;
  journal: string;
  modes: ('IMPS' | 'UPI')[];
}

/** Longest a pending payout may be overdue before reconcile calls it stuck: sweep interval + grace + margin. */
export const SOAK_STUCK_AFTER_MS = 10_000;

const READY: Record<AppName, string> = {
  api: 'api listening',
  worker: 'worker started',
  'rail-sim': 'rail simulator listening',
};

/** One app slot (the second API, the first worker…): the process now filling it, if any. */
interface Slot {
  name: string;
  app: AppName;
  env: Record<string, string>;
  process: AppProcess | undefined;
  running: boolean;
  /** Set while the soak itself is taking it down, so its exit is not mistaken for a crash. */
  expectedExit: boolean;
}

export interface FaultRecord extends PlannedFault {
  startedAtMs: number;
  recoveredAtMs: number;
}

/**
 * Everything a soak run needs, private to it: PostgreSQL and Redis (the services: one box's, or the
 * distributed topology), the rail simulator (with a state file, so a restarted bank remembers what it
 * paid), API and worker processes on free ports. It injects the faults of the schedule and notices any
 * process that dies without being killed.
 */
export class SoakCluster {
  /** Processes that exited without the soak killing them. */
  readonly crashes: string[] = [];

  private constructor(
    readonly services: SoakServices,
    readonly railUrl: string,
    readonly stateFile: string,
    /** The simulated banks: `primary` alone, or `primary` and `secondary` (two-bank topology). */
    readonly banks: SoakBank[],
    /** What tells every app (and the CLI) about the banks: BANKS, with two; nothing with one. */
    readonly bankEnv: Record<string, string>,
    private readonly apis: Slot[],
    private readonly workers: Slot[],
    private readonly rail: Slot,
    private readonly log: (line: string) => void,
  ) {}

  static async start(options: {
    workers: number;
    apis: number;
    dir: string;
    log: (line: string) => void;
    services: SoakServices;
    /**
     * Two banks in the one simulator: `primary` serving IMPS and UPI, `secondary` IMPS only — so while the
     * primary is down, IMPS payouts fail over and UPI payouts, with no other bank, are sent to it and asked
     * about until it answers (docs/reliability.md, "Two banks").
     */
    twoBanks?: boolean;
  }): Promise<SoakCluster> {
    const services = options.services;
    const [railPort, secondaryPort, ...ports] = await Promise.all([
      freePort(),
      freePort(),
      ...Array.from({ length: options.apis * 2 }, () => freePort()),
    ]);
    const apiPorts = ports.slice(0, options.apis);
    const adminPorts = ports.slice(options.apis);
    const railUrl = `http://127.0.0.1:${railPort}`;
    const stateFile = path.join(options.dir, 'bank.jsonl');
    const banks: SoakBank[] = options.twoBanks
      ? [
          { name: 'primary', url: railUrl, journal: journalOf(stateFile, 'primary'), modes: ['IMPS', 'UPI'] },
          {
            name: 'secondary',
            url: `http://127.0.0.1:${secondaryPort}`,
            journal: journalOf(stateFile, 'secondary'),
            modes: ['IMPS'],
          },
        ]
      : [{ name: 'primary', url: railUrl, journal: stateFile, modes: ['IMPS', 'UPI'] }];
    const bankEnv: Record<string, string> = options.twoBanks
      ? {
          BANKS: JSON.stringify(
            banks.map((bank, i) => ({
              name: bank.name,
              baseUrl: bank.url,
              settlementAccount: simulatedAccountAt(i).account,
              modes: bank.modes,
            })),
          ),
        }
      : {};
    const shared = {
      ...services.appEnv(),
      ...bankEnv,
      QUEUE_PREFIX: 'soak',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
    };
    const slot = (name: string, app: AppName, env: Record<string, string>): Slot => ({
      name,
      app,
      env: { ...shared, ...env },
      process: undefined,
      running: false,
      expectedExit: false,
    });
    const rail = slot('rail-sim', 'rail-sim', {
      RAIL_SIM_PORT: String(railPort),
      RAIL_SIM_HOST: '127.0.0.1',
      RAIL_SIM_LATENCY_MS: '20',
      RAIL_SIM_SETTLE_AFTER_MS: '1000',
      RAIL_SIM_LOST_REPLY_MS: '5000',
      RAIL_SIM_DEEMED_SUCCESS_MS: '4000',
      RAIL_SIM_STATUS_LAG_MS: '3000',
      RAIL_SIM_REVERSE_AFTER_MS: '5000',
      RAIL_SIM_STATE_FILE: stateFile,
      ...(options.twoBanks && { RAIL_SIM_BANKS: `primary:${railPort},secondary:${secondaryPort}` }),
    });
    const apis = apiPorts.map((port, i) =>
      // Each API's admin listener has a free port of its own (several run at once): the soak's people send
      // their credits and approvals there, with their own keys.
      slot(`api ${i + 1}`, 'api', {
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_PORT: String(adminPorts[i]),
        ADMIN_HOST: '127.0.0.1',
        // Several APIs at once: each metrics listener takes a free port of its own.
        METRICS_PORT: '0',
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
      }),
    );
    const workers = Array.from({ length: options.workers }, (_, i) =>
      slot(`worker ${i + 1}`, 'worker', {
        ...WORKER_ENV,
        ...(options.twoBanks && TWO_BANK_WORKER_ENV),
        RAIL_BASE_URL: railUrl,
      }),
    );
    const cluster = new SoakCluster(services, railUrl, stateFile, banks, bankEnv, apis, workers, rail, options.log);
    try {
      await Promise.all([rail, ...apis, ...workers].map((s) => cluster.launch(s)));
    } catch (error) {
      await cluster.stop(); // nothing is left running behind a run that could not start
      throw error;
    }
    return cluster;
  }

  get apiUrls(): string[] {
    return this.apis.map((s) => `http://127.0.0.1:${s.env.PORT}`);
  }

  /** The APIs' admin listeners, where a person's commands go (docs/operations.md, "Security model"). */
  get adminUrls(): string[] {
    return this.apis.map((s) => `http://127.0.0.1:${s.env.ADMIN_PORT}`);
  }

  /**
   * Takes the fault's target down, waits out its down time, brings it back and waits until it is ready.
   * The apps' faults are handled here, PostgreSQL's and Redis's by the services.
   */
  async inject(fault: PlannedFault): Promise<void> {
    const down = () => new Promise((resolve) => setTimeout(resolve, fault.downMs));
    switch (fault.kind) {
      case 'kill-worker':
        return this.bounce(this.workers[fault.target]!, down);
      case 'kill-api':
        return this.bounce(this.apis[fault.target]!, down);
      case 'restart-rail-sim':
        return this.bounce(this.rail, down);
      case 'strict-bank':
        return this.bounce(this.rail, down, { RAIL_SIM_DUPLICATES: 'refuse' });
      case 'bank-down':
        return this.takeBankDown(fault, down);
      default:
        if (!(await this.services.inject(fault))) throw new Error(`no part here takes the fault ${fault.kind}`);
    }
  }

  /**
   * The primary bank's downtime: switched on and off through the other bank's control route (a port refusing
   * connections cannot be asked), 503 to every call or its port closed (docs/rail-sim.md, "Faults").
   */
  private async takeBankDown(fault: PlannedFault, down: () => Promise<unknown>): Promise<void> {
    const control = this.banks.find((bank) => bank.name !== 'primary');
    if (!control) throw new Error('bank-down needs a second bank to switch the primary through');
    const primary = this.banks.find((bank) => bank.name === 'primary')!;
    await switchFaults(control.url, 'primary', { down: fault.target === 1 ? 'refused' : true });
    await down();
    await switchFaults(control.url, 'primary', {});
    // The port opens again a moment after the switch: the bank is back once it answers.
    for (let tries = 0; ; tries++) {
      const answered = await fetch(`${primary.url}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) return;
      if (tries > 100) throw new Error('the primary bank did not answer again within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Starts again anything that is not running (a crashed process, say), so the drain has every part. */
  async ensureAllUp(): Promise<void> {
    await this.services.ensureAllUp();
    await Promise.all([this.rail, ...this.apis, ...this.workers].filter((s) => !alive(s)).map((s) => this.launch(s)));
  }

  async stop(): Promise<void> {
    const slots = [...this.apis, ...this.workers, this.rail];
    for (const s of slots) s.expectedExit = true;
    await Promise.all(
      slots.map(async (s) => {
        if (!alive(s)) return;
        s.process!.kill('SIGTERM');
        const deadline = setTimeout(() => s.process!.kill('SIGKILL'), 5_000);
        await s.process!.exited;
        clearTimeout(deadline);
      }),
    );
    await this.services.destroy();
  }

  /** Kills the slot's process and starts it again after `down`, with `env` on top of its own for this run. */
  private async bounce(slot: Slot, down: () => Promise<unknown>, env: Record<string, string> = {}): Promise<void> {
    if (alive(slot)) {
      slot.expectedExit = true;
      slot.process!.kill('SIGKILL');
      await slot.process!.exited;
    }
    await down();
    await this.launch(slot, env);
  }

  private async launch(slot: Slot, env: Record<string, string> = {}): Promise<void> {
    slot.expectedExit = false;
    const child = AppProcess.start(slot.app, { ...slot.env, ...env });
    slot.process = child;
    slot.running = true;
    void child.exited.then(({ code, signal }) => {
      if (slot.process !== child) return;
      slot.running = false;
      if (slot.expectedExit) return;
      const why = signal ?? `code ${code}`;
      this.crashes.push(`${slot.name} exited by itself (${why}):\n${child.tail(10)}`);
      this.log(`!! ${slot.name} exited by itself (${why})`);
    });
    await child.logged(READY[slot.app], 60_000);
  }
}

async function switchFaults(controlUrl: string, bank: string, faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${controlUrl}/sim/banks/${bank}/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`switching ${bank}'s faults: HTTP ${response.status} ${await response.text()}`);
}

function alive(slot: Slot): boolean {
  return slot.process !== undefined && slot.running;
}
