// `pnpm soak`: a chaos run. Payouts from several merchants, with the rail simulator's magic values mixed
// in, while a fault schedule derived from the seed kills and restarts workers, APIs, Redis, the rail
// simulator and PostgreSQL — every one of them private to the run. Then it lets everything drain and
// compares the merchants' answers, our books and the bank's. docs/reliability.md explains the figures.
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPrismaClient } from '@payout/db';
import { makeMerchant } from '../test/support/factories.js';
import { DELIBERATELY_PENDING_PAISE } from '../test/faults/payout-audit.js';
import { readBankJournal } from './soak/bank-journal.js';
import { describeFault, planFaults, type PlannedFault } from './soak/fault-schedule.js';
import { sendPayouts } from './soak/merchant-client.js';
import { planPayouts } from './soak/payout-mix.js';
import { SOAK_STUCK_AFTER_MS, SoakCluster } from './soak/soak-cluster.js';
import { buildReport, formatReport, type FaultRecord } from './soak/soak-report.js';

const USAGE = `usage: pnpm soak [--seed N] [--payouts N] [--merchants N] [--short] [--json]
  --seed N       fault schedule and payout mix (default: a random seed, printed)
  --payouts N    payouts to send (default 2000; 400 with --short)
  --merchants N  merchants sending them (default 20; 8 with --short)
  --short        a run of about a minute and a half, for CI
  --json         print the report as one JSON object`;

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        seed: { type: 'string' },
        payouts: { type: 'string' },
        merchants: { type: 'string' },
        short: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const int = (value: string | undefined, fallback: number, name: string, min: number) => {
      if (value === undefined) return fallback;
      if (!/^[0-9]+$/.test(value) || Number(value) < min) throw new Error(`--${name} must be a whole number ≥ ${min}`);
      return Number(value);
    };
    const short = values.short;
    return {
      seed: int(values.seed, randomInt(1, 2 ** 31), 'seed', 0),
      payouts: int(values.payouts, short ? 400 : 2000, 'payouts', 1),
      merchants: int(values.merchants, short ? 8 : 20, 'merchants', 1),
      short,
      json: values.json,
    };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const options = parseOptions();
// The run's shape: how long payouts are sent for and how many faults fall in that window.
const shape = options.short
  ? { loadMs: 45_000, faults: 10, workers: 2, apis: 2 }
  : { loadMs: 150_000, faults: 25, workers: 3, apis: 2 };
const schedule = planFaults(options.seed, { ...shape });
const planned = planPayouts(options.seed, options.payouts, options.merchants);
// Progress goes to stderr, so --json leaves stdout to the report alone.
const progress = (line: string) => console.error(line);

progress(
  `soak: seed ${options.seed}, ${options.payouts} payouts from ${options.merchants} merchants over ${shape.loadMs / 1000} s, ` +
    `${shape.apis} APIs, ${shape.workers} workers${options.short ? ' (short)' : ''}`,
);
progress('fault schedule (after the first payout is sent):');
for (const fault of schedule) progress(`  ${describeFault(fault)}`);

const startedAt = Date.now();
const dir = await mkdtemp(path.join(tmpdir(), 'soak-'));
let cluster: SoakCluster | undefined;
const run = { interrupted: false };
process.once('SIGINT', () => {
  run.interrupted = true;
  progress('interrupted: stopping everything');
  void cluster?.stop().finally(() => process.exit(130));
});

let exitCode = 2;
try {
  cluster = await SoakCluster.start({ workers: shape.workers, apis: shape.apis, dir, log: progress });
  const running = cluster;
  progress(
    `started: PostgreSQL :${running.postgres.port}, Redis :${running.redis.port}, rail ${running.railUrl}, APIs ${running.apiUrls.join(' ')}`,
  );

  const db = createPrismaClient({ url: running.postgres.databaseUrl, poolSize: 4, connectTimeoutMs: 5_000 });
  try {
    // Each merchant holds more than all its payouts together, so no payout is refused for balance.
    const merchants = await Promise.all(
      Array.from({ length: options.merchants }, async (_, m) => {
        const owed = planned.filter((p) => p.merchant === m).reduce((sum, p) => sum + p.amountPaise, 0n);
        const rupees = (owed / 100n + 1_000n).toString();
        return makeMerchant(db, { mid: `SOAK${String(m + 1).padStart(3, '0')}`, balance: `${rupees}.00` });
      }),
    );

    const loadStart = Date.now();
    const faults: FaultRecord[] = [];
    // Each fault strikes at its planned moment, whatever the others are doing (faults overlap, as they do
    // in life); only two faults on the same part wait for each other, so a part is never killed while it
    // is still coming back.
    const chains = new Map<string, Promise<void>>();
    const faultRun = Promise.all(
      schedule.map(async (fault) => {
        const wait = loadStart + fault.atMs - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const part = `${fault.kind}:${fault.target}`;
        const turn = (chains.get(part) ?? Promise.resolve()).then(async () => {
          if (run.interrupted) return;
          const startedAtMs = Date.now() - loadStart;
          await running.inject(fault);
          const record = { ...fault, startedAtMs, recoveredAtMs: Date.now() - loadStart };
          faults.push(record);
          progress(
            `  ${fault.kind}${fault.kind === 'kill-worker' || fault.kind === 'kill-api' ? ` ${fault.target + 1}` : ''} at +${(startedAtMs / 1000).toFixed(1)} s, back at +${(record.recoveredAtMs / 1000).toFixed(1)} s`,
          );
        });
        chains.set(part, turn);
        await turn;
      }),
    );
    const sent = await sendPayouts(planned, {
      apiUrls: () => running.apiUrls,
      merchants,
      ratePerSecond: options.payouts / (shape.loadMs / 1000),
      concurrency: 32,
      giveUpAfterMs: 60_000,
    });
    await faultRun;
    faults.sort((a, b) => a.startedAtMs - b.startedAtMs);
    progress(`all payouts sent at +${((Date.now() - loadStart) / 1000).toFixed(1)} s; draining`);

    await running.ensureAllUp();
    const drainStart = Date.now();
    const drainDeadline = drainStart + (options.short ? 120_000 : 300_000);
    for (;;) {
      const [row] = await db.$queryRaw<{ moving: number }[]>`
        SELECT count(*)::int AS moving FROM payouts
         WHERE status = 'PENDING'
           AND (amount_paise % 100 <> ${DELIBERATELY_PENDING_PAISE} OR state NOT IN ('AWAITING_RAIL', 'MANUAL_REVIEW'))`;
      const moving = row?.moving ?? 0;
      if (moving === 0 || Date.now() > drainDeadline) {
        if (moving > 0) progress(`drain gave up with ${moving} payouts still moving`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const drainMs = Date.now() - drainStart;
    const [last] = await db.$queryRaw<{ at: Date | null }[]>`SELECT max(settled_at) AS at FROM payouts`;
    const lastSettledMs = last?.at ? last.at.getTime() - loadStart : 0;

    const report = await buildReport({
      db,
      seed: options.seed,
      short: options.short,
      merchantIds: merchants.map((m) => m.merchant.id),
      sent,
      bank: await readBankJournal(running.stateFile),
      stuckAfterMs: SOAK_STUCK_AFTER_MS,
      faults,
      schedule: schedule satisfies PlannedFault[],
      drainMs,
      lastSettledMs,
      totalMs: Date.now() - startedAt,
      crashes: running.crashes,
    });
    console.log(
      options.json
        ? JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)
        : formatReport(report),
    );
    exitCode = report.lost || report.paidTwice || report.invariantBreaches ? 1 : 0;
  } finally {
    await db.$disconnect();
  }
} catch (error) {
  progress(`soak failed to run: ${(error as Error).stack ?? String(error)}`);
} finally {
  await cluster?.stop().catch((error: unknown) => progress(`stopping: ${(error as Error).message}`));
  await rm(dir, { recursive: true, force: true });
}
process.exit(exitCode);
