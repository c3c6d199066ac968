import { readdirSync, readFileSync } from 'node:fs';
import type { PrismaClient } from '@payout/db';

// Where the machine's CPU went during one run, read from /proc: the app processes the bench started, this
// database's PostgreSQL backends, the rest of PostgreSQL, Redis, the bench itself (the load generator),
// and everything else (other users of the machine show up there).

export const OTHER_PROCESSES = 'other processes';
/** CPU no process still known accounts for: processes that lived less than a quarter second. */
export const ENDED_PROCESSES = 'short-lived processes';

/** Linux reports process CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

export interface CpuSplit {
  wallS: number;
  cores: number;
  /** Cores busy on average over the run, machine-wide (at most `cores`). */
  busy: number;
  /** Cores used on average, by who used them. */
  byUser: Record<string, number>;
  /** The biggest of the other processes, by command name: who else was using the machine. */
  otherCommands: Record<string, number>;
  /**
   * Share of the run each app's main thread — a Node app's event loop — was ready to run but waiting for a
   * core (the kernel's schedstat run-queue time). On two cores shared with PostgreSQL and the load generator
   * this is time a request waits that is neither the app's CPU nor the database's (docs/performance.md,
   * "The API on a shared machine").
   */
  waitedForCore: Record<string, number>;
}

interface Snapshot {
  at: number;
  machine: { busy: number; total: number };
  /** CPU ticks by pid, with the process's name. */
  processes: Map<number, { comm: string; ticks: number }>;
  backends: Set<number>;
  /** Nanoseconds each app's main thread has spent runnable but not running, by pid. */
  runQueueNs: Map<number, number>;
}

export class CpuMeter {
  constructor(
    private readonly db: PrismaClient,
    private readonly databaseName: string,
    private readonly apps: () => ReadonlyMap<number, string>,
  ) {}

  /** Runs `work` and reports who used the CPU meanwhile. */
  async measure<T>(work: () => Promise<T>): Promise<{ result: T; cpu: CpuSplit }> {
    const before = await this.snapshot();
    // Processes come and go during a run (test runs of others, PostgreSQL's autovacuum workers): a look
    // every quarter second keeps what most of them used before they ended.
    const lastSeen = new Map<number, { comm: string; ticks: number }>();
    const sampler = setInterval(() => {
      for (const [pid, entry] of readProcesses()) lastSeen.set(pid, entry);
    }, 250);
    try {
      const result = await work();
      clearInterval(sampler);
      const after = await this.snapshot();
      for (const [pid, entry] of lastSeen) if (!after.processes.has(pid)) after.processes.set(pid, entry);
      return { result, cpu: this.split(before, after) };
    } finally {
      clearInterval(sampler);
    }
  }

  private async snapshot(): Promise<Snapshot> {
    const rows = await this.db.$queryRaw<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity WHERE datname = ${this.databaseName}`;
    const stat = readFileSync('/proc/stat', 'utf8');
    const processes = readProcesses();
    const runQueueNs = readRunQueueTimes([...this.apps().keys()]);
    const fields = stat.split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return {
      at: Date.now(),
      machine: { busy: total - idle, total },
      processes,
      backends: new Set(rows.map((r) => r.pid)),
      runQueueNs,
    };
  }

  private split(before: Snapshot, after: Snapshot): CpuSplit {
    const wallS = (after.at - before.at) / 1000;
    const cores = (after.machine.total - before.machine.total) / TICKS_PER_SECOND / wallS;
    const busy = (after.machine.busy - before.machine.busy) / TICKS_PER_SECOND / wallS;
    const apps = this.apps();
    const byUser: Record<string, number> = {};
    const otherCommands: Record<string, number> = {};
    let accounted = 0;
    for (const [pid, { comm, ticks }] of after.processes) {
      // A process that started during the run spent all its time in it.
      const used = ticks - (before.processes.get(pid)?.ticks ?? 0);
      if (used <= 0) continue;
      let user: string;
      if (apps.has(pid)) user = apps.get(pid)!;
      else if (pid === process.pid) user = 'bench (load generator)';
      else if (comm === 'postgres') {
        user = after.backends.has(pid) || before.backends.has(pid) ? 'postgres (bench db)' : 'postgres (rest)';
      } else if (comm === 'redis-server') user = 'redis';
      else user = OTHER_PROCESSES;
      const share = used / TICKS_PER_SECOND / wallS;
      byUser[user] = (byUser[user] ?? 0) + share;
      if (user === OTHER_PROCESSES) otherCommands[comm] = (otherCommands[comm] ?? 0) + share;
      accounted += share;
    }
    // Processes too short-lived for the sampler took their time with them.
    if (busy - accounted > 0.01) byUser[ENDED_PROCESSES] = busy - accounted;
    const round = (n: number) => Math.round(n * 100) / 100;
    for (const key of Object.keys(byUser)) byUser[key] = round(byUser[key]!);
    const waitedForCore: Record<string, number> = {};
    for (const [pid, ns] of after.runQueueNs) {
      const waitedBefore = before.runQueueNs.get(pid);
      const name = apps.get(pid);
      if (waitedBefore !== undefined && name !== undefined)
        waitedForCore[name] = round((ns - waitedBefore) / 1e9 / wallS);
    }
    const top = Object.entries(otherCommands)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .filter(([, v]) => v >= 0.01);
    return {
      wallS,
      cores: Math.round(cores * 10) / 10,
      busy: round(busy),
      byUser,
      otherCommands: Object.fromEntries(top.map(([k, v]) => [k, round(v)])),
      waitedForCore,
    };
  }
}

/**
 * Every process's CPU ticks so far. Read synchronously: /proc answers from memory in microseconds, and a few
 * hundred small reads a quarter second cost the bench's thread less than as many promises and thread-pool
 * round trips (the paced load sends from a thread of its own; autocannon's sockets wait a moment at most).
 */
function readProcesses(): Map<number, { comm: string; ticks: number }> {
  const processes = new Map<number, { comm: string; ticks: number }>();
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // Ended since the listing.
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split at the last ")".
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const rest = stat.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12th and 13th after the comm.
    processes.set(Number(pid), { comm, ticks: Number(rest[11]) + Number(rest[12]) });
  }
  return processes;
}

/**
 * Run-queue time of each process's main thread (its thread id is its pid): the second field of
 * /proc/<pid>/task/<pid>/schedstat, in nanoseconds. A process that ended, or a kernel without schedstats,
 * has no entry.
 */
function readRunQueueTimes(pids: number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      const waitNs = runQueueNs(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8'));
      if (waitNs !== undefined) times.set(pid, waitNs);
    } catch {
      // Ended, or no schedstats.
    }
  }
  return times;
}

/** "<on-cpu ns> <run-queue ns> <timeslices>" → the run-queue nanoseconds. */
export function runQueueNs(schedstat: string): number | undefined {
  const waited = Number(schedstat.trim().split(/\s+/)[1]);
  return Number.isFinite(waited) ? waited : undefined;
}

/** "cpu 1.50 of 2 cores busy: api 0.97 · postgres (bench db) 0.62 · …; waiting for a core: api 0.27", biggest first. */
export function describeCpu(cpu: CpuSplit): string {
  const waits = shares(cpu.waitedForCore);
  return (
    `cpu ${cpu.busy.toFixed(2)} of ${cpu.cores} cores busy: ${shares(cpu.byUser)}` +
    (waits ? `; waiting for a core: ${waits}` : '')
  );
}

/** "api 0.97 · postgres (bench db) 0.62", biggest first, leaving out what rounds to nothing. */
function shares(byName: Record<string, number>): string {
  return Object.entries(byName)
    .sort((a, b) => b[1] - a[1])
    .filter(([, v]) => v >= 0.01)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(' · ');
}
