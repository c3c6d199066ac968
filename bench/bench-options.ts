import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Tiny loads and second-long measurements through the same code paths: proves the bench still works. */
  smoke: boolean;
  /** Seconds of each measured run. */
  durationS: number;
  /** Print the results as JSON on stdout instead of the table. */
  json: boolean;
  /** Leave the bench database in place for inspection. */
  keep: boolean;
  /** Write V8 CPU profiles of the API and worker processes (under .tmp/bench-profiles/), to see where the CPU goes. */
  cpuProf: boolean;
  /**
   * Start the API, the worker and the reference server with `--perf-basic-prof-only-functions`, so `perf record -g -p <pid>` names their
   * JavaScript frames beside V8's own work (its compiler and collector threads, inline-cache misses), which a
   * V8 CPU profile does not show.
   */
  perfMap: boolean;
  /**
   * Run this one stage alone (after seeding; no pgbench ceilings, no other runs), for a figure of its own
   * without the whole bench. null: the whole bench.
   */
  only: BenchStage | null;
}

/** The stages `--only` can run alone. */
export const BENCH_STAGES = [
  'accept',
  'end-to-end',
  'lookup-logging',
  'bank-downtime',
  'caught-payouts',
  'statement',
  'payout-list',
] as const;
export type BenchStage = (typeof BENCH_STAGES)[number];

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `usage: pnpm bench [--smoke] [--duration <seconds>] [--json] [--keep] [--cpu-prof] [--perf-map] [--only <stage>]

  --smoke            a few seconds in all, tiny loads, same code paths (for CI; no timing assertions)
  --duration <s>     seconds of each measured run (default 10; 1 with --smoke)
  --json             print the results as JSON instead of the table
  --keep             keep the bench database (payouts_bench_<id>) instead of dropping it
  --cpu-prof         write CPU profiles of the API and worker processes to .tmp/bench-profiles/<run>/
  --perf-map         start the API, worker and reference server with --perf-basic-prof-only-functions,
                     so perf record -g -p <pid> names their JavaScript frames
  --only <stage>     run one stage alone: accept (accepts and lookups over the spread merchants, API ÷ reference server:
                     throughput and CPU per answer, and p99 at half load; with --cpu-prof, the profile to read first),
                     end-to-end (an unbounded accept stream while one worker settles at a 0 ms rail: settled ÷ accepted),
                     lookup-logging (status lookups with the default logging ÷ logging off),
                     bank-downtime (settled/s with one of two banks down ÷ both up, and a bank's recovery),
                     caught-payouts (a bank down for a minute, then back: how soon the payouts it left undecided settle),
                     statement (recon statement over a day's statement of 20,000 and 1,000,000 lines),
                     payout-list (GET /api/payouts for a merchant with 10,000,000 payouts ÷ one with a few)`;

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        smoke: { type: 'boolean', default: false },
        duration: { type: 'string' },
        json: { type: 'boolean', default: false },
        keep: { type: 'boolean', default: false },
        'cpu-prof': { type: 'boolean', default: false },
        'perf-map': { type: 'boolean', default: false },
        only: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) throw new UsageError('');
  const smoke = values.smoke;
  let durationS = smoke ? 1 : 10;
  if (values.duration !== undefined) {
    durationS = Number(values.duration);
    if (!Number.isFinite(durationS) || durationS <= 0 || durationS > 3600) {
      throw new UsageError(`--duration must be a number of seconds between 0 and 3600, not "${values.duration}"`);
    }
  }
  const only = values.only ?? null;
  if (only !== null && !isBenchStage(only)) {
    throw new UsageError(`--only takes one of ${BENCH_STAGES.join(', ')}, not "${only}"`);
  }
  return {
    smoke,
    durationS,
    json: values.json,
    keep: values.keep,
    cpuProf: values['cpu-prof'],
    perfMap: values['perf-map'],
    only,
  };
}

function isBenchStage(name: string): name is BenchStage {
  return (BENCH_STAGES as readonly string[]).includes(name);
}
