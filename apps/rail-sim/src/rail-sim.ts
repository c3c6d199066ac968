import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultSwitch, FaultWindow } from '@payout/config';
import { pino, type Logger } from 'pino';
import { BankLedger, type BankStats, type DuplicateManner } from './bank-ledger.js';
import type { BankPayout } from './bank-payout.js';
import type { ControlledBank } from './control-routes.js';
import { FaultSchedule, type BankFaults, type FaultReport } from './fault-schedule.js';
import { createRailSimApp } from './rail-sim-app.js';
import { ReplyScheduler } from './reply-scheduler.js';
import { SETTLEMENT_ACCOUNT, type SettlementAccount } from './statement-export.js';
import { StateJournal } from './state-journal.js';

export interface RailSimOptions {
  /** Added before every answer of the bank's API. Default 0. */
  latencyMs?: number;
  /** How long a `.22` payout stays PENDING after its submit. Default 2 000. */
  settleAfterMs?: number;
  /** How long the reply to a `.33` submit is held back. Default 60 000. */
  lostReplyMs?: number;
  /** How long a `.66` payout stays PENDING before it is deemed successful. Default 300 000. */
  deemedSuccessMs?: number;
  /** How long after its payment a `.99` payout comes back (REVERSED). Default 60 000. */
  reverseAfterMs?: number;
  /** How long the status API says NOT_FOUND for a `.88` payout it has paid. Default 30 000. */
  statusLagMs?: number;
  /** `refuse`: the strict bank, answering 400 DUPLICATE_REFERENCE to a repeated submit. Default `echo`. */
  duplicates?: DuplicateManner;
  /** Journal every change here and replay it now, so the bank remembers references across restarts. */
  stateFile?: string;
  /** Default: silent. */
  logger?: Logger;
  /** The bank's alias (docs/rail-sim.md, "Several banks"). Default `primary`. */
  name?: string;
  /** The settlement account its statements are for. Default the first simulated bank's. */
  account?: SettlementAccount;
  /** Its fault schedule, counted from the moment the simulator is created (docs/rail-sim.md, "Faults"). */
  faults?: readonly FaultWindow[];
  /** Uniform draws in [0, 1) deciding which calls an `errorRate` fails. Default Math.random. */
  random?: () => number;
}

/** One listening simulator. */
export interface RailSimServer {
  /** Base URL for clients, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The port it listens on (kept while a `refused` fault has it closed). */
  port: number;
  /**
   * Stops listening and ends promptly: answers only waiting out the latency are sent at once, held-back
   * (`.33`) replies are dropped with their connections.
   */
  close(): Promise<void>;
}

export interface RailSim {
  readonly name: string;
  readonly account: SettlementAccount;
  /**
   * Starts serving the bank's API; port 0 picks a free port. Host defaults to 127.0.0.1. `banks` are the
   * simulated banks its `/sim/banks` routes may switch faults of (the other banks of the same process); by
   * default itself alone.
   */
  listen(port: number, host?: string, banks?: readonly RailSim[]): Promise<RailSimServer>;
  /** The bank's faults now. */
  faults(): BankFaults;
  /** From now on the faults are `change` over the schedule (`POST /sim/faults`); `{}` clears them. */
  switchFaults(change: FaultSwitch): void;
  faultReport(): FaultReport;
  /** The URL of its listening server, once it listens. */
  url(): string | undefined;
  /** The bank's record of a reference (asking lets a due `.22` payout settle, as the API's GET does). */
  payout(reference: string): BankPayout | undefined;
  /** Every reference the bank holds. */
  payouts(): BankPayout[];
  stats(): BankStats;
}

// A connection still sending its request when the server closes is cut after this long.
const CLOSE_DEADLINE_MS = 2_000;

/**
 * A stand-alone fake bank (IMPS and UPI) over HTTP, with magic amounts that make it fail, stall, lose
 * replies or go down on purpose: see docs/rail-sim.md. Throws {@link StateFileError} for a state file it
 * cannot trust.
 */
export function createRailSim(options: RailSimOptions = {}): RailSim {
  const name = options.name ?? 'primary';
  const logger = (options.logger ?? pino({ level: 'silent' })).child({ bank: name });
  const latencyMs = options.latencyMs ?? 0;
  const lostReplyMs = options.lostReplyMs ?? 60_000;
  const journal = options.stateFile === undefined ? undefined : new StateJournal(options.stateFile);
  const ledger = new BankLedger({
    settleAfterMs: options.settleAfterMs ?? 2_000,
    deemedSuccessMs: options.deemedSuccessMs ?? 300_000,
    reverseAfterMs: options.reverseAfterMs ?? 60_000,
    statusLagMs: options.statusLagMs ?? 30_000,
    duplicates: options.duplicates ?? 'echo',
    ...(journal ? { journal } : {}),
  });
  if (journal) logger.info({ stateFile: journal.path, ...ledger.stats() }, 'state file replayed');
  const schedule = new FaultSchedule(options.faults ?? [], Date.now());
  const faultWatch = new FaultWatch(schedule, logger);
  let listeningUrl: string | undefined;

  const sim: RailSim = {
    name,
    account: options.account ?? SETTLEMENT_ACCOUNT,
    async listen(port, host = '127.0.0.1', banks = [sim]) {
      const replies = new ReplyScheduler(() => latencyMs + schedule.at(Date.now()).latencyMs);
      const control = new Map<string, ControlledBank>(banks.map((bank) => [bank.name, controlOf(bank)]));
      const server = createServer(
        createRailSimApp({
          ledger,
          replies,
          lostReplyMs,
          logger,
          account: sim.account,
          faults: schedule,
          random: options.random ?? Math.random,
          self: controlOf(sim),
          banks: control,
        }),
      );
      await listenOn(server, port, host);
      const address = server.address() as AddressInfo;
      const url = clientUrl(address);
      listeningUrl = url;
      let closed: Promise<void> | undefined;
      let open = true;
      // A `refused` fault closes the bank's port (every connection cut) and a later change opens it again.
      const unwatch = faultWatch.subscribe(() => {
        const refused = schedule.at(Date.now()).down === 'refused';
        if (refused && open) {
          open = false;
          server.close();
          server.closeAllConnections();
          logger.info({ port: address.port }, 'bank down: its port refuses connections');
        } else if (!refused && !open && closed === undefined) {
          open = true;
          listenOn(server, address.port, host).then(
            () => logger.info({ port: address.port }, 'bank back: its port accepts connections'),
            (error: unknown) => logger.error({ err: error }, 'bank could not listen again'),
          );
        }
      });

      return {
        url,
        port: address.port,
        close() {
          closed ??= new Promise<void>((resolve, reject) => {
            unwatch();
            if (!open) {
              replies.close();
              resolve();
              return;
            }
            server.close((error) => (error ? reject(error) : resolve()));
            replies.close();
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), CLOSE_DEADLINE_MS).unref();
          });
          return closed;
        },
      };
    },
    faults: () => schedule.at(Date.now()),
    switchFaults(change) {
      schedule.switchTo(change, Date.now());
      logger.info({ faults: change }, 'faults switched');
      faultWatch.changed();
    },
    faultReport: () => schedule.report(Date.now()),
    url: () => listeningUrl,
    payout: (reference) => ledger.lookup(reference),
    payouts: () => ledger.all(),
    stats: () => ledger.stats(),
  };
  return sim;
}

/** What the control routes may do with a bank (`/sim/…`, docs/rail-sim.md, "Faults"). */
function controlOf(sim: RailSim): ControlledBank {
  return {
    name: sim.name,
    account: sim.account.number,
    url: () => sim.url(),
    report: () => sim.faultReport(),
    switchTo: (change) => sim.switchFaults(change),
  };
}

/**
 * Tells the bank's servers when its faults change: at once when switched, and at each moment the schedule
 * changes by itself (a window opening or closing, a switch running out), with a timer that never keeps the
 * process alive.
 */
class FaultWatch {
  readonly #listeners = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly schedule: FaultSchedule,
    private readonly logger: Logger,
  ) {}

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    this.changed();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) clearTimeout(this.#timer);
    };
  }

  changed(): void {
    for (const listener of this.#listeners) listener();
    clearTimeout(this.#timer);
    const next = this.schedule.nextChangeAfter(Date.now());
    if (next === undefined || this.#listeners.size === 0) return;
    this.#timer = setTimeout(
      () => {
        this.logger.info({ faults: this.schedule.at(Date.now()) }, 'fault schedule moved on');
        this.changed();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now())),
    );
    this.#timer.unref();
  }
}

// setTimeout's longest delay; a change further off is looked at again then.
const MAX_TIMER_MS = 2 ** 31 - 1;

function listenOn(server: ReturnType<typeof createServer>, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function clientUrl(address: AddressInfo): string {
  // A server on every interface is reached through loopback.
  if (address.address === '0.0.0.0') return `http://127.0.0.1:${address.port}`;
  if (address.address === '::') return `http://[::1]:${address.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
