import { countAccepted, countSettled, databaseNow } from './bench-database.js';
import { sleep, startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import { freePort } from './app-process.js';
import { describeCpu, type CpuSplit } from './cpu-meter.js';
import { emptyQueue, firstSettlement } from './end-to-end.js';
import type { PayoutRequests } from './http-load.js';
import { acceptBacklog } from './slow-rail-stage.js';

/** One window of the stage: a worker routing a backlog between the two banks. */
export interface BankWindow {
  /** Which bank was down during the window, if one was. */
  down: string | null;
  backlog: { payouts: number; acceptedPerSecond: number };
  /** Payouts settled SUCCESS in the window, per second (read from the database). */
  settledPerSecond: number;
  /** Backlog payouts still unsettled when the window closed: 0 would mean the worker ran out of work. */
  unsettledAtEnd: number;
  windowS: number;
  cpu: CpuSplit;
}

/**
 * A bank down must not cost the others' throughput, and must be used again soon after it recovers
 * (docs/performance.md, "A bank down"): two simulated banks in one rail simulator (docs/rail-sim.md), each
 * with a maxTps out of one worker's reach, one worker given both in BANKS. Its settled/s with both up and with the
 * primary answering 503 to every call (the worker must eliminate it and route to the secondary), each from a
 * backlog accepted before the worker started, in four windows — both up, primary down, primary down, both
 * up — so a machine growing busier or quieter over the stage weighs on both figures alike. While the last
 * down window's worker still has backlog the primary comes back, and the time from its first answer to the
 * first payout it accepts (a probe, or a payout routed to it) is its recovery figure.
 */
export interface BankDowntimeStage {
  banks: string[];
  /** The four windows, in the order they ran. */
  windows: BankWindow[];
  /** Mean settled/s of the windows with both banks up, and of those with the primary down. */
  bothUpPerS: number;
  oneDownPerS: number;
  /** From the primary answering again to the first payout it accepted; null when none came in the wait. */
  recoveryToFirstPayoutS: number | null;
  /** How long the stage waited for that payout at most. */
  recoveryWaitS: number;
}

// Routing at the bench's pace (docs/banks.md, "Settings"): a short health window so the down bank is
// eliminated, and seen again, within the warm-up.
const ROUTING = { ROUTING_WINDOW_MS: '5000', ROUTING_REFRESH_MS: '250', ROUTING_HOLD_RETRY_MS: '500' };
/** Each simulated bank's `maxTps`: out of one worker's reach, so only the worker and the routing bound the figure. */
const BANK_MAX_TPS = 100_000;

export async function measureBankDowntimeStage(
  env: BenchEnv,
  api: StartedApp,
  payouts: PayoutRequests,
  expectedPerS: number,
): Promise<BankDowntimeStage> {
  const { plan } = env;
  const [primaryPort, secondaryPort] = [await freePort(), await freePort()];
  const rail = await startApp(
    env,
    'rail-sim-two-banks',
    'rail-sim',
    'RAIL_SIM_PORT',
    '/health',
    { RAIL_SIM_HOST: '127.0.0.1', RAIL_SIM_BANKS: `primary:${primaryPort},secondary:${secondaryPort}` },
    primaryPort,
  );
  const primaryUrl = `http://127.0.0.1:${primaryPort}`;
  // Each bank takes far more calls a second than one worker can make on this machine, as the end-to-end runs'
  // rail does: with the default `maxTps` (500) the one bank left up would cap the down windows at 500/s while
  // both up run at the worker's CPU limit, and the figure would say which bound is lower on the day rather
  // than what a down bank costs (docs/performance.md, "A bank down").
  const banks = [
    { name: 'primary', baseUrl: primaryUrl, maxTps: BANK_MAX_TPS },
    { name: 'secondary', baseUrl: `http://127.0.0.1:${secondaryPort}`, maxTps: BANK_MAX_TPS },
  ];
  const workerVariables = {
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: env.queuePrefix,
    BANKS: JSON.stringify(banks),
    WORKER_CONCURRENCY: String(plan.zeroLatencyConcurrency),
    // As in the end-to-end runs: the accept runs left payouts that were never meant to settle.
    SWEEP_INTERVAL_MS: '3600000',
    SHUTDOWN_GRACE_MS: '10000',
    ...ROUTING,
  };

  const window = async (down: string | null): Promise<{ run: BankWindow; worker: StartedApp }> => {
    const label = down ? `two banks, ${down} down` : 'two banks, both up';
    env.signal.throwIfAborted();
    await emptyQueue(env.redisUrl, env.queuePrefix);
    const startedAt = await databaseNow(env.db);
    const wanted = Math.ceil(2 * expectedPerS * (plan.warmupS + plan.durationS + 2));
    const backlog = await acceptBacklog(env, api, payouts, wanted, `backlog for ${label}`);
    const worker = await startApp(
      env,
      `worker-${down ? 'one-bank-down' : 'both-banks'}-${windows.length + 1}`,
      'worker',
      'HEALTH_PORT',
      '/healthz',
      workerVariables,
    );
    // The warm-up is when a down bank is found out: at least the health window's length.
    await sleep(env, Math.max(plan.warmupS * 1000, down ? Number(ROUTING.ROUTING_WINDOW_MS) / 2 : 0));
    await firstSettlement(env, startedAt);
    const from = await databaseNow(env.db);
    const { cpu } = await env.cpu.measure(() => sleep(env, plan.durationS * 1000));
    const to = await databaseNow(env.db);
    const windowS = (to.getTime() - from.getTime()) / 1000;
    const settledPerSecond = (await countSettled(env.db, from, to, startedAt)) / windowS;
    const unsettledAtEnd =
      (await countAccepted(env.db, startedAt, to)) - (await countSettled(env.db, startedAt, to, startedAt));
    env.log(
      `${label}: settled ${Math.round(settledPerSecond)}/s from a backlog of ${backlog.payouts} ` +
        `(${unsettledAtEnd} left at the end)\n    ${describeCpu(cpu)}`,
    );
    if (unsettledAtEnd <= 0) env.log(`${label}: the backlog ran out before the window closed: the figure is low`);
    return { run: { down, backlog, settledPerSecond, unsettledAtEnd, windowS, cpu }, worker };
  };

  const windows: BankWindow[] = [];
  const first = await window(null);
  windows.push(first.run);
  await first.worker.stop();
  await switchFaults(primaryUrl, { down: true });
  const down = await window('primary');
  windows.push(down.run);
  await down.worker.stop();
  const one = await window('primary');
  windows.push(one.run);

  // The primary comes back while the worker still has backlog to route: how soon is it used again?
  const before = await acceptedBy(primaryUrl);
  await switchFaults(primaryUrl, {});
  const backAt = Date.now();
  const recoveryWaitS = Math.max(30, (3 * Number(ROUTING.ROUTING_WINDOW_MS)) / 1000);
  let recoveryToFirstPayoutS: number | null = null;
  while (Date.now() - backAt < recoveryWaitS * 1000) {
    if ((await acceptedBy(primaryUrl)) > before) {
      recoveryToFirstPayoutS = (Date.now() - backAt) / 1000;
      break;
    }
    await sleep(env, 50);
  }
  env.log(
    recoveryToFirstPayoutS === null
      ? `primary back: no payout reached it within ${recoveryWaitS} s`
      : `primary back: its first payout ${recoveryToFirstPayoutS.toFixed(2)} s after it answered again`,
  );
  await one.worker.stop();
  const last = await window(null);
  windows.push(last.run);
  await last.worker.stop();
  await rail.stop();
  await emptyQueue(env.redisUrl, env.queuePrefix);
  const meanOf = (runs: BankWindow[]) => runs.reduce((sum, r) => sum + r.settledPerSecond, 0) / runs.length;
  return {
    banks: banks.map((b) => b.name),
    windows,
    bothUpPerS: meanOf(windows.filter((w) => w.down === null)),
    oneDownPerS: meanOf(windows.filter((w) => w.down !== null)),
    recoveryToFirstPayoutS,
    recoveryWaitS,
  };
}

/** References the bank has accepted so far (its `/v1/stats`). */
async function acceptedBy(url: string): Promise<number> {
  const stats = (await (await fetch(`${url}/v1/stats`)).json()) as { references: number };
  return stats.references;
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
