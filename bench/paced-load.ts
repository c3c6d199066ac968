import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';
import type { HttpRunResult, LoadSpec } from './http-load.js';

export interface PacedLoadSpec extends LoadSpec {
  overallRate: number;
  warmupS: number;
}

export interface RunningPacedLoad {
  /** Resolves when the warm-up is over and the measured requests begin. */
  measuring: Promise<void>;
  done: Promise<HttpRunResult>;
}

interface PreparedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface WorkerReport {
  type: 'done';
  latencies: Float64Array;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  durationS: number;
}

/**
 * A fixed-rate load whose requests arrive evenly spaced, as many independent merchants' requests do: the
 * i-th request is due at start + i ÷ rate, is sent on any free keep-alive connection (at most
 * `connections`), and its latency is counted from when it was due, so time spent waiting for a free
 * connection behind a slow answer counts too (no coordinated omission).
 *
 * Why not autocannon's `overallRate`: autocannon gives each connection a per-second quota and sends it
 * back to back at the start of every second, all connections together, then waits for the next second.
 * At half the maximum rate that is a full-speed burst for half of every second and nothing for the other
 * half, so its p99 is the latency of a saturated server, not of one at half load; and its
 * coordinated-omission correction assumes a 1 ms interval whatever the rate, which adds a synthetic
 * sample per millisecond of every answer (docs/performance.md, "What each stage measures").
 *
 * The requests are set up here, before the run, and sent from a thread of their own
 * (paced-load-worker.mjs), so neither building them nor the bench's own work delays one that falls due.
 * The first `warmupS` of requests, at the same pace and on the same connections, are not counted: like
 * every other measured run, this one starts warm.
 */
export function startPacedLoad(spec: PacedLoadSpec): RunningPacedLoad {
  const warmupCount = Math.floor(spec.overallRate * spec.warmupS);
  const requests = prepare(spec.requests, warmupCount + Math.floor(spec.overallRate * spec.durationS));
  const worker = new Worker(new URL('./paced-load-worker.mjs', import.meta.url), {
    workerData: {
      url: spec.url,
      connections: spec.connections,
      rate: spec.overallRate,
      warmupCount,
      requests,
      successStatus: spec.successStatus,
    },
  });
  const stop = () => worker.postMessage('stop');
  spec.signal.addEventListener('abort', stop, { once: true });
  let began: () => void = () => undefined;
  const measuring = new Promise<void>((resolve) => (began = resolve));
  const done = new Promise<HttpRunResult>((resolve, reject) => {
    worker.on('message', (message: { type: 'measuring' } | WorkerReport) => {
      if (message.type === 'measuring') began();
      else resolve(summarise(spec, message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the paced load's thread exited (${code}) before reporting`)));
  }).finally(() => {
    spec.signal.removeEventListener('abort', stop);
    // A run stopped during its warm-up never measures: whoever waits for it is released all the same.
    began();
  });
  return { measuring, done };
}

/** Each request as its template's setup makes it, with its length: `count` of them, the templates in turn. */
function prepare(templates: readonly autocannon.Request[], count: number): PreparedRequest[] {
  return Array.from({ length: count }, (_, i) => {
    const template = templates[i % templates.length]!;
    const setup = template.setupRequest as ((request: autocannon.Request) => autocannon.Request) | undefined;
    const prepared = setup ? setup({ ...template }) : template;
    const body = typeof prepared.body === 'string' ? prepared.body : undefined;
    const headers: Record<string, string> = { ...(prepared.headers as Record<string, string> | undefined) };
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return {
      method: prepared.method ?? 'GET',
      path: prepared.path ?? '/',
      headers,
      ...(body !== undefined && { body }),
    };
  });
}

function summarise(spec: PacedLoadSpec, report: WorkerReport): HttpRunResult {
  const latencies = report.latencies.sort();
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  const succeeded = report.statuses[String(spec.successStatus)] ?? 0;
  const { durationS } = report;
  return {
    label: spec.label,
    connections: spec.connections,
    requestedRate: spec.overallRate,
    durationS: round(durationS),
    statuses: report.statuses,
    succeeded,
    succeededPerSecond: durationS > 0 ? succeeded / durationS : 0,
    latencyMs: {
      mean: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)),
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: round(latencies.at(-1) ?? 0),
    },
    errors: report.errors,
    timeouts: report.timeouts,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
