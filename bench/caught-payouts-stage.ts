import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalOf, loadConfig, workerConfigSchema } from '@payout/config';
import { databaseNow } from './bench-database.js';
import { sleep, startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import { freePort } from './app-process.js';
import { emptyQueue } from './end-to-end.js';
import type { PayoutRequests } from './http-load.js';
import { startPacedLoad } from './paced-load.js';

/**
 * Payouts caught by a bank's downtime (docs/performance.md, "A bank down"): two simulated banks, one worker
 * with the production status-check schedule and routing, and a steady trickle of IMPS payouts. The primary
 * answers 503 to every call for a while, then comes back. The payouts it answered 503 are OUTCOME_UNKNOWN
 * with it — a 503 is no "not paid" (docs/banks.md, "Never two banks") — and their next status check is
 * INQUIRY_IMPS_FIRST_DELAY_MS or INQUIRY_IMPS_SPACING_MS away; once the bank is back they are asked at once
 * and resubmitted at the same bank ("Recovery is immediate"). The figure is how long after the primary
 * answers again the last of them is settled.
 */
export interface CaughtPayoutsStage {
  banks: string[];
  /** Payouts a second, evenly spaced, over the whole stage. */
  ratePerS: number;
  /** Both banks up before the downtime, long enough for both to be scored. */
  healthyS: number;
  /** The primary answering 503 to every call. */
  downS: number;
  /** Payouts accepted over the stage. */
  accepted: number;
  /** Payouts recorded with the primary and OUTCOME_UNKNOWN when it came back. */
  caught: number;
  /** From the primary answering again to the first and the last caught payout settled (SUCCESS or FAILED). */
  firstSettledAfterRecoveryS: number | null;
  settledAfterRecoveryS: number | null;
  /** Caught payouts still unsettled when the stage stopped waiting (`waitS` after the recovery). */
  unsettled: number;
  waitS: number;
  /** What the caught payouts became. */
  caughtOutcomes: Record<string, number>;
  /** The primary's downtime as routing recorded it: opened after it went down, resolved after it came back. */
  downtime: { openedAfterS: number | null; resolvedAfterBackS: number | null };
  /** The banks' own books (their journals, docs/rail-sim.md "The state file") beside ours. */
  books: {
    /** Caught payouts the primary paid. */
    caughtPaidByPrimary: number;
    /** Caught payouts the secondary holds: must be none. */
    caughtAtSecondary: number;
    /** References of the stage recorded by both banks, and paid by both: must be none. */
    sentToTwoBanks: string[];
    paidByTwoBanks: string[];
  };
}

/** The stage's shape: the full run, or the smoke run's shorter downtime. */
export interface CaughtPayoutsPlan {
  ratePerS: number;
  healthyS: number;
  downS: number;
  /** How long after the recovery the stage waits for the caught payouts at most. */
  waitS: number;
}

export async function measureCaughtPayoutsStage(
  env: BenchEnv,
  api: StartedApp,
  payouts: PayoutRequests,
): Promise<CaughtPayoutsStage> {
  const { ratePerS, healthyS, downS, waitS } = env.plan.caughtPayoutsStage;
  env.signal.throwIfAborted();
  await emptyQueue(env.redisUrl, env.queuePrefix);
  const journalDir = await mkdtemp(join(tmpdir(), 'payouts-bench-caught-'));
  const removeJournals = env.cleanup.push('remove the caught-payouts journals', () =>
    rm(journalDir, { recursive: true, force: true }),
  );
  const stateFile = join(journalDir, 'bank.jsonl');
  const [primaryPort, secondaryPort] = [await freePort(), await freePort()];
  const rail = await startApp(
    env,
    'rail-sim-caught-payouts',
    'rail-sim',
    'RAIL_SIM_PORT',
    '/health',
    {
      RAIL_SIM_HOST: '127.0.0.1',
      RAIL_SIM_BANKS: `primary:${primaryPort},secondary:${secondaryPort}`,
      RAIL_SIM_STATE_FILE: stateFile,
    },
    primaryPort,
  );
  const primaryUrl = `http://127.0.0.1:${primaryPort}`;
  const banks = [
    { name: 'primary', baseUrl: primaryUrl },
    { name: 'secondary', baseUrl: `http://127.0.0.1:${secondaryPort}` },
  ];
  // The production schedule of status checks, named here so no variable of the shell shortens it: what the
  // figure is about is that a caught payout does not wait for it.
  const defaults = loadConfig(workerConfigSchema, {});
  const inquiry = Object.fromEntries(
    Object.entries(defaults).flatMap(([key, value]) =>
      (key.startsWith('INQUIRY_') || key === 'RAIL_NOT_FOUND_TRUSTED_AFTER_MS') && typeof value === 'number'
        ? [[key, String(value)]]
        : [],
    ),
  );
  const worker = await startApp(env, 'worker-caught-payouts', 'worker', 'HEALTH_PORT', '/healthz', {
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: env.queuePrefix,
    BANKS: JSON.stringify(banks),
    ...inquiry,
    // Routing at its production settings (docs/banks.md, "Settings"). The sweep is off, as in the other
    // stages: the accept runs left payouts in this database that were never meant to settle; and with it
    // off, nothing but the recovery itself can ask about the caught payouts early.
    SWEEP_INTERVAL_MS: '3600000',
    SHUTDOWN_GRACE_MS: '10000',
  });

  const stageStart = await databaseNow(env.db);
  const stopLoad = new AbortController();
  const load = startPacedLoad({
    label: 'caught payouts: IMPS, evenly spaced',
    url: api.url,
    connections: 4,
    overallRate: ratePerS,
    warmupS: 0,
    // Stopped by hand once the caught payouts are settled, or the wait is over.
    durationS: healthyS + downS + waitS + 5,
    requests: payouts.requests(['IMPS'], env.merchants.spread),
    successStatus: 202,
    signal: AbortSignal.any([env.signal, stopLoad.signal]),
  });
  try {
    await sleep(env, healthyS * 1000);
    await switchFaults(primaryUrl, { down: true });
    const downAt = await databaseNow(env.db);
    env.log(`caught payouts: primary answering 503 to every call for ${downS} s`);
    await sleep(env, downS * 1000);

    // Caught: with the primary, and undecided because of what it answered while it was down.
    const caughtRows = await env.db.$queryRaw<{ id: bigint; ack_no: string }[]>`
      SELECT id, ack_no FROM payouts
       WHERE created_at >= ${stageStart} AND bank = 'primary' AND state = 'OUTCOME_UNKNOWN'`;
    await switchFaults(primaryUrl, {});
    const backAt = await databaseNow(env.db);
    const caughtIds = caughtRows.map((r) => r.id);
    env.log(`caught payouts: primary back, ${caughtIds.length} caught`);

    let pending = caughtIds.length;
    const deadline = Date.now() + waitS * 1000;
    while (pending > 0 && Date.now() < deadline) {
      await sleep(env, 250);
      const [row] = await env.db.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM payouts WHERE id = ANY(${caughtIds}) AND status = 'PENDING'`;
      pending = Number(row!.n);
    }
    stopLoad.abort();
    await load.done;
    const waitedS = Math.round(((await databaseNow(env.db)).getTime() - backAt.getTime()) / 100) / 10;

    const outcomes = await env.db.$queryRaw<{ state: string; n: bigint }[]>`
      SELECT state::text AS state, count(*) AS n FROM payouts WHERE id = ANY(${caughtIds}) GROUP BY state`;
    const [span] = await env.db.$queryRaw<{ first: Date | null; last: Date | null }[]>`
      SELECT min(settled_at) AS first, max(settled_at) AS last
        FROM payouts WHERE id = ANY(${caughtIds}) AND status <> 'PENDING'`;
    const [accepted] = await env.db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM payouts WHERE created_at >= ${stageStart}`;
    const [downtime] = await env.db.$queryRaw<{ since: Date; resolved_at: Date | null }[]>`
      SELECT since, resolved_at FROM bank_downtimes
       WHERE bank = 'primary' AND mode = 'IMPS' AND since >= ${stageStart} ORDER BY id LIMIT 1`;
    const stageReferences = await env.db.$queryRaw<{ ack_no: string }[]>`
      SELECT ack_no FROM payouts WHERE created_at >= ${stageStart}`;

    await worker.stop();
    await rail.stop();
    const primaryBook = await readBook(journalOf(stateFile, 'primary'));
    const secondaryBook = await readBook(journalOf(stateFile, 'secondary'));
    const ofStage = new Set(stageReferences.map((r) => r.ack_no));
    const both = (a: Set<string>, b: Set<string>) => [...a].filter((ref) => b.has(ref) && ofStage.has(ref));
    const seconds = (at: Date | null | undefined, from: Date) =>
      at ? Math.round((at.getTime() - from.getTime()) / 10) / 100 : null;

    const stage: CaughtPayoutsStage = {
      banks: banks.map((b) => b.name),
      ratePerS,
      healthyS,
      downS,
      accepted: Number(accepted!.n),
      caught: caughtIds.length,
      firstSettledAfterRecoveryS: caughtIds.length && pending === 0 ? seconds(span?.first, backAt) : null,
      settledAfterRecoveryS: caughtIds.length && pending === 0 ? seconds(span?.last, backAt) : null,
      unsettled: pending,
      waitS: waitedS,
      caughtOutcomes: Object.fromEntries(outcomes.map((o) => [o.state, Number(o.n)])),
      downtime: {
        openedAfterS: seconds(downtime?.since, downAt),
        resolvedAfterBackS: seconds(downtime?.resolved_at, backAt),
      },
      books: {
        caughtPaidByPrimary: caughtRows.filter((r) => primaryBook.paid.has(r.ack_no)).length,
        caughtAtSecondary: caughtRows.filter((r) => secondaryBook.recorded.has(r.ack_no)).length,
        sentToTwoBanks: both(primaryBook.recorded, secondaryBook.recorded),
        paidByTwoBanks: both(primaryBook.paid, secondaryBook.paid),
      },
    };
    env.log(describeCaughtPayouts(stage));
    if (stage.caught === 0) env.log('caught payouts: the primary held no undecided payout when it came back');
    return stage;
  } finally {
    stopLoad.abort();
    await load.done.catch(() => undefined);
    await worker.stop();
    await rail.stop();
    await removeJournals();
  }
}

export function describeCaughtPayouts(stage: CaughtPayoutsStage): string {
  const { books, downtime } = stage;
  const after = (s: number | null) => (s === null ? 'never' : `${s} s`);
  return (
    `caught payouts: ${stage.caught} of ${stage.accepted} accepted at ${stage.ratePerS}/s; the last settled ` +
    `${stage.settledAfterRecoveryS === null ? `— ${stage.unsettled} still unsettled after ${stage.waitS} s` : `${stage.settledAfterRecoveryS} s`} ` +
    `after the primary came back (the first ${after(stage.firstSettledAfterRecoveryS)}); ` +
    `${JSON.stringify(stage.caughtOutcomes)}\n    downtime opened ${after(downtime.openedAfterS)} after the primary ` +
    `went down, resolved ${after(downtime.resolvedAfterBackS)} after it came back; books: ${books.caughtPaidByPrimary} ` +
    `caught paid by the primary, ${books.caughtAtSecondary} at the secondary, ${books.sentToTwoBanks.length} sent to ` +
    `two banks, ${books.paidByTwoBanks.length} paid by two`
  );
}

/** One bank's journal: the references it recorded, and those it paid (SUCCESS, or REVERSED after it). */
async function readBook(file: string): Promise<{ recorded: Set<string>; paid: Set<string> }> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const recorded = new Set<string>();
  const paid = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: { reference: string; status: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue; // a last line cut short was never answered (the simulator drops it too)
    }
    recorded.add(entry.reference);
    if (entry.status === 'SUCCESS' || entry.status === 'REVERSED') paid.add(entry.reference);
  }
  return { recorded, paid };
}

/** Switches a simulated bank's faults (docs/rail-sim.md, "Faults"). */
async function switchFaults(url: string, faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${url}/sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!response.ok) throw new Error(`rail-sim ${url}/sim/faults answered ${response.status}`);
}
