import { Queue } from 'bullmq';
import { createWorkerConnection, PAYOUT_QUEUE, payoutJobs } from '@payout/queue';
import { sleep, type BenchEnv, type StartedApp } from './bench-env.js';
import type { HttpRunResult } from './http-load.js';
import { ratioFigure, type Figure } from './results-table.js';

/** One bulk batch through POST /api/bulkpayout: how long its answer took and how many items per second that is. */
export interface BulkBatchRun {
  items: number;
  answeredMs: number;
  itemsPerSecond: number;
  status: number;
  accepted: number;
  /**
   * Accepted payouts of the batch whose job was not in Redis once the API had had its time to queue them:
   * left to the sweeper (goal 0). A batch is queued in pieces so that none of its commands is large enough for
   * a loaded Redis to time it out (docs/performance.md, "Bulk batches").
   */
  leftToSweeper: number;
}

/** How long the API may take to queue a batch's jobs after answering: its enqueue time-out and then some. */
const QUEUE_WAIT_MS = 10_000;

/**
 * A full-size batch (5,000 items; 200 in a smoke run) for the one-merchant wallet the single accept path's
 * "one merchant" runs use, so the two are comparable: the batch is one request whose items the accepter
 * coalesces into a few statements. A small batch first warms the path up (unmeasured).
 */
export async function measureBulkBatch(env: BenchEnv, api: StartedApp): Promise<BulkBatchRun> {
  env.signal.throwIfAborted();
  const items = env.plan.smoke ? 200 : 5_000;
  await sendBatch(env, api, 50, 'warm-up');
  const run = await sendBatch(env, api, items, 'measured');
  env.log(
    `bulk batch of ${items}: answered in ${Math.round(run.answeredMs)} ms, ${Math.round(run.itemsPerSecond)} items/s` +
      ` (${run.accepted} accepted, ${run.leftToSweeper} left to the sweeper)`,
  );
  if (run.status !== 202 || run.accepted !== items)
    throw new Error(`bulk batch answered ${run.status}, ${run.accepted} accepted of ${items}`);
  return run;
}

// TransactionIDs of the bulk batches: 20 digits, apart from every other load's (see PayoutRequests).
let nextTransactionId = 50_000_000_000_000_000_000n;
let nextBatchId = 1;

async function sendBatch(env: BenchEnv, api: StartedApp, items: number, kind: string): Promise<BulkBatchRun> {
  const { hot } = env.merchants;
  const payouts = Array.from({ length: items }, (_, i) => ({
    Mode: i % 2 === 0 ? 'IMPS' : 'UPI',
    TransactionID: String(nextTransactionId++),
    Amount: '101.00',
    ...(i % 2 === 0 ? { Account: '123456789012', Ifsc: 'HDFC0001234' } : { Upi: 'asha.kumar@okhdfc' }),
    Name: 'Asha Kumar',
  }));
  const body = JSON.stringify({ BatchID: `${Date.now()}${nextBatchId++}`, Payouts: payouts });
  const started = performance.now();
  const res = await fetch(`${api.url}/api/bulkpayout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', mid: hot.mid, token: hot.token },
    body,
    signal: env.signal,
  });
  const answer = (await res.json()) as { accepted?: number };
  const answeredMs = performance.now() - started;
  if (res.status !== 202) env.log(`bulk ${kind} batch answered ${res.status}`);
  return {
    items,
    answeredMs,
    itemsPerSecond: (items * 1000) / answeredMs,
    status: res.status,
    accepted: answer.accepted ?? 0,
    leftToSweeper: await payoutsWithoutJob(
      env,
      payouts.map((p) => p.TransactionID),
    ),
  };
}

/**
 * How many of the merchant's payouts with these TransactionIDs have no execute job in the queue, waiting
 * until none is missing or {@link QUEUE_WAIT_MS} has passed. Nothing takes jobs off the queue while the
 * bulk stage runs (no worker is started before the end-to-end runs), so a missing job was never queued.
 */
async function payoutsWithoutJob(env: BenchEnv, transactionIds: readonly string[]): Promise<number> {
  const rows = await env.db.payout.findMany({
    where: { merchantId: env.merchants.hot.id, transactionId: { in: [...transactionIds] } },
    select: { id: true },
  });
  const connection = createWorkerConnection(env.redisUrl);
  const queue = new Queue(PAYOUT_QUEUE, { connection, prefix: env.queuePrefix });
  try {
    const deadline = performance.now() + QUEUE_WAIT_MS;
    let missing = rows.map((row) => payoutJobs.execute.jobId(String(row.id)));
    for (;;) {
      // EXISTS on each job's hash, one pipeline: BullMQ's getJobState would search the wait list of every job
      // it does not find (LPOS, linear in the hundred thousand jobs the accept runs left queued), and so many
      // of those block Redis long enough to time out the very enqueue being measured.
      const pipeline = connection.pipeline();
      for (const jobId of missing) pipeline.exists(queue.toKey(jobId));
      const found = ((await pipeline.exec()) ?? []).map(([error, exists]) => !error && exists === 1);
      missing = missing.filter((_, i) => !found[i]);
      if (missing.length === 0 || performance.now() > deadline) return missing.length;
      await sleep(env, 250);
    }
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/**
 * The figures with the batch's own placed after the other API figures: its answer time, and its items per
 * second as a ratio to the single accept path on the same wallet in the same run.
 */
export function withBulkFigures(figures: Figure[], bulk: BulkBatchRun, singleOneMerchant: HttpRunResult): Figure[] {
  const items = bulk.items.toLocaleString('en-US');
  const own: Figure[] = [
    { section: 'api', name: `bulk batch of ${items} items: time to answer`, value: bulk.answeredMs / 1000, unit: 's' },
    {
      section: 'api',
      name: `bulk batch of ${items} items: payouts left to the sweeper`,
      value: bulk.leftToSweeper,
      unit: 'payouts',
    },
    ratioFigure(
      { section: 'api', name: `bulk batch of ${items} items: items accepted`, value: bulk.itemsPerSecond, unit: '/s' },
      { name: 'single accepts, one merchant (same run)', value: singleOneMerchant.succeededPerSecond, unit: '/s' },
    ),
  ];
  const lastApi = figures.findLastIndex((f) => f.section === 'api');
  return [...figures.slice(0, lastApi + 1), ...own, ...figures.slice(lastApi + 1)];
}
