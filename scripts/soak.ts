// `pnpm soak`: a chaos run. Payouts from several merchants, with the rail simulator's magic values mixed
// in, while a fault schedule derived from the seed kills and restarts workers, APIs, Redis, the rail
// simulator and PostgreSQL — every one of them private to the run. Then it lets everything drain and
// compares the merchants' answers, our books and the bank's. With `--topology two-banks` the simulator serves
// two banks and the primary goes down mid-run. docs/reliability.md explains the figures.
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPrismaClient, updateQueueSettings } from '@payout/db';
import { makeMerchant } from '../test/support/factories.js';
import { countStillMoving } from './soak/still-moving.js';
import { auditBanks } from './soak/bank-audit.js';
import { readBankJournal, type BankBook } from './soak/bank-journal.js';
import {
  describeFault,
  DISTRIBUTED_FAULT_KINDS,
  partOf,
  planBankDowntime,
  planFaults,
  TWO_BANK_FAULT_KINDS,
  type PlannedFault,
} from './soak/fault-schedule.js';
import { sendPayouts } from './soak/merchant-client.js';
import { batchesOf, planPayouts } from './soak/payout-mix.js';
import { runStatements } from './soak/statement-run.js';
import { addSoakOperators, creditWithApproval } from './soak/four-eyes.js';
import { SOAK_STUCK_AFTER_MS, SoakCluster } from './soak/soak-cluster.js';
import { buildReport, formatReport, type FaultRecord } from './soak/soak-report.js';
import { DistributedServices, SingleBoxServices } from './soak/soak-services.js';
import { twoBankFigures, type TwoBankFigures } from './soak/two-bank-report.js';

const USAGE = `usage: pnpm soak [--seed N] [--payouts N] [--merchants N] [--short] [--topology T] [--json]
  --seed N       fault schedule and payout mix (default: a random seed, printed)
  --payouts N    payouts to send (default 2000; 400 with --short)
  --merchants N  merchants sending them (default 20; 8 with --short)
  --short        a run of about a minute and a half, for CI
  --topology T   single (default: one PostgreSQL, one Redis), distributed (a 3-master Redis Cluster,
                 PgBouncer before the primary, a streaming replica for lookups; docs/scaling.md), or
                 two-banks (one box, two simulated banks; the primary goes down for half the load window:
                 two minutes of four, thirty seconds of a short run's minute; docs/reliability.md)
  --json         print the report as one JSON object`;

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        seed: { type: 'string' },
        payouts: { type: 'string' },
        merchants: { type: 'string' },
        short: { type: 'boolean', default: false },
        topology: { type: 'string', default: 'single' },
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
    const topology = (['single', 'distributed', 'two-banks'] as const).find((t) => t === values.topology);
    if (!topology) throw new Error('--topology must be single, distributed or two-banks');
    return {
      seed: int(values.seed, randomInt(1, 2 ** 31), 'seed', 0),
      payouts: int(values.payouts, short ? 400 : 2000, 'payouts', 1),
      merchants: int(values.merchants, short ? 8 : 20, 'merchants', 1),
      short,
      topology,
      json: values.json,
    };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const options = parseOptions();
// The run's shape: how long payouts are sent for and how many faults fall in that window.
// The distributed topology runs the deployed shape (two APIs, three workers) and its own fault kinds.
const distributed = options.topology === 'distributed';
// Two banks: a longer window, so the primary's downtime (half of it) lasts two minutes (thirty seconds when
// short), with fewer faults of our own processes around it.
const twoBanks = options.topology === 'two-banks';
const shape = {
  ...(options.short
    ? { loadMs: 45_000, faults: 10, workers: 2, apis: 2 }
    : { loadMs: 150_000, faults: 25, workers: 3, apis: 2 }),
  ...(distributed && { workers: 3, kinds: DISTRIBUTED_FAULT_KINDS }),
  ...(twoBanks && {
    ...(options.short ? { loadMs: 60_000, faults: 4 } : { loadMs: 240_000, faults: 12 }),
    kinds: TWO_BANK_FAULT_KINDS,
  }),
};
const schedule = [
  ...planFaults(options.seed, { ...shape }),
  ...(twoBanks ? [planBankDowntime(options.seed, shape.loadMs)] : []),
].sort((a, b) => a.atMs - b.atMs);
// Two merchants are pinned to the primary, so their payouts are held while it is down (docs/banks.md,
// "Routing" and "Holding"): the first may wait for it only this long, and some of its payouts fail with
// BANK_DOWNTIME; the second waits its default window, and its payouts are sent when the primary is back.
const SHORT_HOLD_SECONDS = options.short ? 10 : 30;
const PINNED_MERCHANTS = 2;
const planned = planPayouts(options.seed, options.payouts, options.merchants);
// Progress goes to stderr, so --json leaves stdout to the report alone.
const progress = (line: string) => console.error(line);

progress(
  `soak: seed ${options.seed}, ${options.payouts} payouts from ${options.merchants} merchants over ${shape.loadMs / 1000} s, ` +
    `${shape.apis} APIs, ${shape.workers} workers on the ${options.topology} topology${options.short ? ' (short)' : ''}`,
);
progress(
  `${planned.filter((p) => p.batch !== null).length} of them in ${batchesOf(planned).size} bulk batches (POST /api/bulkpayout)`,
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
  const services = await (distributed ? DistributedServices.start() : SingleBoxServices.start());
  cluster = await SoakCluster.start({
    workers: shape.workers,
    apis: shape.apis,
    dir,
    log: progress,
    services,
    twoBanks,
  });
  const running = cluster;
  progress(
    `started: ${services.describe()}, ${running.banks.map((b) => `bank ${b.name} ${b.url} (${b.modes.join('+')})`).join(', ')}, ` +
      `APIs ${running.apiUrls.join(' ')}`,
  );

  const db = createPrismaClient({ url: services.databaseUrl, poolSize: 4, connectTimeoutMs: 5_000 });
  try {
    // Each merchant holds more than all its payouts together, so no payout is refused for balance — but
    // the last one queues when its balance is low (docs/api.md, "Queue if low balance") and starts with
    // a quarter of what it owes: its payouts queue, and credits during and after the load release them.
    const queueing = options.merchants >= 2 ? options.merchants - 1 : null;
    const operators = await addSoakOperators(db, running.adminUrls[0]!);
    const owedBy = (m: number) => planned.filter((p) => p.merchant === m).reduce((sum, p) => sum + p.amountPaise, 0n);
    const merchants = await Promise.all(
      Array.from({ length: options.merchants }, async (_, m) => {
        const rupees = m === queueing ? owedBy(m) / 400n : owedBy(m) / 100n + 1_000n;
        const mid = `SOAK${String(m + 1).padStart(3, '0')}`;
        const merchant = await makeMerchant(db, { mid, balance: `${rupees.toString()}.00` });
        if (m === queueing) await updateQueueSettings(db, mid, { queueIfLowBalance: true });
        if (twoBanks && m < PINNED_MERCHANTS && m !== queueing) {
          await db.$executeRaw`UPDATE merchants SET pinned_bank = 'primary' WHERE mid = ${mid}`;
          if (m === 0)
            await db.$executeRaw`UPDATE merchants SET downtime_hold_seconds = ${SHORT_HOLD_SECONDS} WHERE mid = ${mid}`;
          progress(
            `${mid} is pinned to the primary and holds its payouts while it is down${m === 0 ? `, at most ${SHORT_HOLD_SECONDS} s` : ''}`,
          );
        }
        return merchant;
      }),
    );
    /** Tops the queueing merchant up, as its finance team would; each credit releases what now fits. */
    const topUp = async (paise: bigint, reference: string) => {
      if (queueing === null) return;
      const merchant = merchants[queueing]!;
      await creditWithApproval(running.adminUrls, operators, {
        mid: merchant.mid,
        amountPaise: paise,
        reference: `${reference}-${merchant.mid}`,
      });
      progress(`credited ${merchant.mid} ${(paise / 100n).toString()}.00 (${reference}): it queues when low`);
    };
    const queueOwed = queueing === null ? 0n : owedBy(queueing);

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
        const part = partOf(fault);
        const turn = (chains.get(part) ?? Promise.resolve()).then(async () => {
          if (run.interrupted) return;
          const startedAtMs = Date.now() - loadStart;
          try {
            await running.inject(fault);
          } catch (error) {
            // A part that does not come back in time (a slow start on a busy machine) is a finding, not
            // the end of the run: the drain starts every part again, and the report lists it.
            running.crashes.push(`${fault.kind} did not recover: ${(error as Error).message}`);
            progress(`!! ${fault.kind} did not recover: ${(error as Error).message.split('\n')[0]}`);
          }
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
    const midLoadTopUp = setTimeout(() => void topUp(queueOwed / 4n + 1n, 'soak-top-up-1'), shape.loadMs / 2);
    // How many payouts are held at once (two banks): sampled each second while the load runs.
    let heldPeak = 0;
    const heldSampler = twoBanks
      ? setInterval(() => {
          db.$queryRaw<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM payouts WHERE held_since IS NOT NULL AND state = 'ACCEPTED'`.then(
            ([row]) => (heldPeak = Math.max(heldPeak, row?.n ?? 0)),
            () => undefined, // PostgreSQL restarting: the next sample counts
          );
        }, 1_000)
      : undefined;
    const sent = await sendPayouts(planned, {
      apiUrls: () => running.apiUrls,
      merchants,
      ratePerSecond: options.payouts / (shape.loadMs / 1000),
      concurrency: 32,
      giveUpAfterMs: 60_000,
    });
    clearTimeout(midLoadTopUp);
    await faultRun;
    clearInterval(heldSampler);
    // The rest of what it owes, and more: every queued payout fits once this commits.
    await topUp(queueOwed, 'soak-top-up-2');
    faults.sort((a, b) => a.startedAtMs - b.startedAtMs);
    progress(`all payouts sent at +${((Date.now() - loadStart) / 1000).toFixed(1)} s; draining`);

    await running.ensureAllUp();
    const drainStart = Date.now();
    const drainDeadline = drainStart + (options.short ? 120_000 : 300_000);
    for (;;) {
      const moving = await countStillMoving(db);
      if (moving === 0 || Date.now() > drainDeadline) {
        if (moving > 0) progress(`drain gave up with ${moving} payouts still moving`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The `.99` payouts come back at the bank 5 s after it paid them, which is before we settled them: the
    // statement is taken once that time has passed for the last settlement, and it returns them.
    const [paidLast] = await db.$queryRaw<{ at: Date | null }[]>`SELECT max(settled_at) AS at FROM payouts`;
    const reversalsDue = (paidLast?.at?.getTime() ?? 0) + 6_000 - Date.now();
    if (reversalsDue > 0) await new Promise((resolve) => setTimeout(resolve, reversalsDue));
    const statements = [];
    for (const bank of running.banks) {
      statements.push(
        ...(await runStatements({
          bank: bank.name,
          railUrl: bank.url,
          appEnv: running.bankEnv,
          databaseUrl: services.databaseUrl,
          adminUrl: running.adminUrls[0]!,
          operators,
          since: startedAt,
          dir,
        })),
      );
    }
    for (const s of statements)
      progress(
        `statement ${s.bank} ${s.date} ${s.format}: recon --apply exit ${s.exitCode}, applied ${s.applied} (${JSON.stringify(s.counts)})`,
      );
    const [queue] = await db.$queryRaw<{ queued: number; released: number; waiting: number }[]>`
      SELECT count(*) FILTER (WHERE to_state = 'QUEUED')::int AS queued,
             count(*) FILTER (WHERE from_state = 'QUEUED' AND to_state = 'ACCEPTED')::int AS released,
             (SELECT count(*)::int FROM payouts WHERE state = 'QUEUED') AS waiting
        FROM payout_events`;
    progress(
      `queue if low balance: ${queue?.queued ?? 0} payouts queued, ${queue?.released ?? 0} released by credits, ${queue?.waiting ?? 0} still waiting`,
    );
    const drainMs = Date.now() - drainStart;
    const [last] = await db.$queryRaw<{ at: Date | null }[]>`SELECT max(settled_at) AS at FROM payouts`;
    const lastSettledMs = last?.at ? last.at.getTime() - loadStart : 0;

    // Every bank's journal; with two banks, side by side under the rule that a payout goes to a second bank
    // only after its first bank's definitive no.
    const books = new Map<string, BankBook>();
    for (const bank of running.banks) books.set(bank.name, await readBankJournal(bank.journal));
    const banksAudit = auditBanks(books);
    const downtime = faults.find((f) => f.kind === 'bank-down');
    let twoBankReport: TwoBankFigures | undefined;
    if (twoBanks) {
      twoBankReport = await twoBankFigures({
        db,
        banks: running.banks,
        books,
        audit: banksAudit,
        downtime: downtime
          ? {
              manner: downtime.target === 1 ? 'refused' : '503',
              fromMs: downtime.startedAtMs,
              backMs: downtime.recoveredAtMs,
              backAt: loadStart + downtime.recoveredAtMs,
            }
          : null,
        heldPeak,
      });
    }

    const report = await buildReport({
      db,
      seed: options.seed,
      short: options.short,
      topology: options.topology,
      merchantIds: merchants.map((m) => m.merchant.id),
      sent,
      bank: {
        records: banksAudit.records,
        paidTwice: [...books.values()].flatMap((book) => book.paidTwice),
        lines: [...books.values()].reduce((sum, book) => sum + book.lines, 0),
        acceptedAt: new Map(),
      },
      stuckAfterMs: SOAK_STUCK_AFTER_MS,
      faults,
      schedule: schedule satisfies PlannedFault[],
      drainMs,
      lastSettledMs,
      totalMs: Date.now() - startedAt,
      crashes: running.crashes,
      statements,
      ...(twoBankReport && { twoBanks: twoBankReport }),
    });
    console.log(
      options.json
        ? JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)
        : formatReport(report),
    );
    exitCode = report.lost || report.paidTwice || report.sentToTwoBanks || report.invariantBreaches ? 1 : 0;
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
