import { SeededRandom } from './seeded-random.js';

export const FAULT_KINDS = [
  'kill-worker',
  'restart-redis',
  'restart-rail-sim',
  'restart-postgres',
  'kill-api',
  'strict-bank',
] as const;

/**
 * The faults of the distributed topology (`--topology distributed`): the single box's, with Redis's
 * restart replaced by a cluster master failing over, plus the replica lagging and PgBouncer restarting.
 */
export const DISTRIBUTED_FAULT_KINDS = [
  'kill-worker',
  'fail-over-redis-master',
  'restart-rail-sim',
  'restart-postgres',
  'kill-api',
  'lag-replica',
  'restart-pgbouncer',
] as const;

/**
 * The faults of the two-bank topology (`--topology two-banks`) beside the primary bank's downtime, which is
 * planned apart ({@link planBankDowntime}): our own processes and services failing while payouts move between
 * banks. The rail simulator is not restarted: it would take both banks down at once, and bring the primary
 * back before its downtime ends.
 */
export const TWO_BANK_FAULT_KINDS = ['kill-worker', 'kill-api', 'restart-redis', 'restart-postgres'] as const;

export type FaultKind =
  | (typeof FAULT_KINDS)[number]
  | (typeof DISTRIBUTED_FAULT_KINDS)[number]
  | (typeof TWO_BANK_FAULT_KINDS)[number]
  | 'bank-down';

/** One fault: at `atMs` after the load starts, take `kind` down for `downMs`, then bring it back. */
export interface PlannedFault {
  atMs: number;
  kind: FaultKind;
  /** Which worker or API process (for the kinds that have several). */
  target: number;
  downMs: number;
}

export interface ScheduleShape {
  /** How long payouts are sent for; faults fall inside this window. */
  loadMs: number;
  faults: number;
  workers: number;
  apis: number;
  /** The kinds to draw from (default: the single box's). */
  kinds?: readonly FaultKind[];
}

// How long each kind stays down: long enough for requests and jobs to notice, short enough to recover
// within the run.
const DOWN_MS: Record<FaultKind, [number, number]> = {
  'kill-worker': [500, 4_000],
  'restart-redis': [300, 3_000],
  'restart-rail-sim': [500, 4_000],
  'restart-postgres': [500, 3_000],
  'kill-api': [500, 3_000],
  'strict-bank': [500, 3_000],
  'fail-over-redis-master': [300, 2_000],
  'lag-replica': [1_000, 5_000],
  'restart-pgbouncer': [300, 2_000],
  // Planned apart, never drawn: a quarter of the load window into the run, for half of it.
  'bank-down': [0, 0],
};

/**
 * The primary bank's downtime in the two-bank topology: from a quarter of the load window, for half of it
 * (two minutes of a full run's four, thirty seconds of a short run's one). Half the seeds take it down as a
 * bank answering 503 to everything, the other half as a port refusing connections (`target` 1).
 */
export function planBankDowntime(seed: number, loadMs: number): PlannedFault {
  return { atMs: Math.round(loadMs / 4), kind: 'bank-down', target: seed % 2, downMs: Math.round(loadMs / 2) };
}

/**
 * The fault schedule of a seed: a pure function of the seed and the run's shape, so the same seed always
 * plans the same faults. Every kind occurs (when there are at least as many faults as kinds), the faults
 * are spread over the load window one per slot, and each slot is long enough for its fault to end
 * before the next begins.
 */
export function planFaults(seed: number, shape: ScheduleShape): PlannedFault[] {
  const random = new SeededRandom(seed ^ 0x5eed_fa17);
  const kinds: FaultKind[] = [];
  while (kinds.length < shape.faults) kinds.push(...random.shuffle(shape.kinds ?? FAULT_KINDS));
  const startMs = 2_000;
  const slotMs = Math.max(1, Math.floor((shape.loadMs - startMs) / Math.max(1, shape.faults)));
  return kinds.slice(0, shape.faults).map((kind, i) => {
    const [minDown, maxDown] = DOWN_MS[kind];
    const downMs = Math.min(random.int(minDown, maxDown), Math.floor(slotMs * 0.6));
    return {
      atMs: startMs + i * slotMs + random.int(0, Math.max(0, slotMs - downMs - 1_000)),
      kind,
      target:
        kind === 'kill-worker'
          ? random.int(0, shape.workers - 1)
          : kind === 'kill-api'
            ? random.int(0, shape.apis - 1)
            : kind === 'fail-over-redis-master'
              ? random.int(0, 2) // which of the three masters
              : 0,
      downMs,
    };
  });
}

/**
 * The part a fault takes down. Two faults on the same part wait for each other, so a part is never killed
 * while it is still coming back: `strict-bank` and `restart-rail-sim` both restart the rail simulator.
 */
export function partOf(fault: PlannedFault): string {
  if (fault.kind === 'strict-bank' || fault.kind === 'restart-rail-sim') return 'rail-sim';
  if (fault.kind === 'bank-down') return 'bank:primary';
  return `${fault.kind}:${fault.target}`;
}

const WHAT: Record<FaultKind, string> = {
  'kill-worker': 'SIGKILL worker',
  'kill-api': 'SIGKILL api',
  'restart-redis': 'SIGKILL Redis (restarts empty)',
  'restart-rail-sim': 'SIGKILL the rail simulator (restarts from its state file)',
  'strict-bank':
    'SIGKILL the rail simulator; it restarts strict, refusing every repeated reference with 400, until its next restart',
  'restart-postgres': 'crash PostgreSQL (immediate stop, crash recovery on start)',
  'fail-over-redis-master': 'SIGKILL a Redis Cluster master (its replica takes over)',
  'lag-replica': 'pause WAL replay on the read replica',
  'restart-pgbouncer': 'SIGKILL PgBouncer (every pooled connection drops)',
  'bank-down': 'the primary bank goes down',
};

export function describeFault(fault: PlannedFault): string {
  const what =
    fault.kind === 'kill-worker' || fault.kind === 'kill-api'
      ? `${WHAT[fault.kind]} ${fault.target + 1}`
      : fault.kind === 'fail-over-redis-master'
        ? `${WHAT[fault.kind]}, master ${fault.target + 1}`
        : fault.kind === 'bank-down'
          ? `${WHAT[fault.kind]} (${fault.target === 1 ? 'its port refuses connections' : '503 to every call'})`
          : WHAT[fault.kind];
  return `+${(fault.atMs / 1000).toFixed(1).padStart(6)} s  ${fault.kind.padEnd(22)} ${what}, down ${(fault.downMs / 1000).toFixed(1)} s`;
}
