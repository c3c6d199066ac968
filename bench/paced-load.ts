import { Agent, request as httpRequest } from 'node:http';
import type autocannon from 'autocannon';
import type { HttpRunResult, LoadSpec } from './http-load.js';

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
 * sample per millisecond of every answer (docs/performance.md, "What limits each figure").
 */
export function runPacedLoad(spec: LoadSpec & { overallRate: number }): Promise<HttpRunResult> {
  const target = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let timeouts = 0;
  let sent = 0;
  let answered = 0;
  let nextRequest = 0;
  const intervalMs = 1000 / spec.overallRate;
  const total = Math.floor(spec.overallRate * spec.durationS);
  const startedAt = performance.now();

  return new Promise<HttpRunResult>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (timer) clearTimeout(timer);
      spec.signal.removeEventListener('abort', stopNow);
      agent.destroy();
      const durationS = (performance.now() - startedAt) / 1000;
      resolve(summarise(spec, latencies, statuses, errors, timeouts, durationS));
    };
    const stopNow = () => {
      sent = total;
      finish();
    };
    spec.signal.addEventListener('abort', stopNow, { once: true });

    const send = (dueAt: number) => {
      const template = spec.requests[nextRequest++ % spec.requests.length]!;
      const setup = template.setupRequest as ((request: autocannon.Request) => autocannon.Request) | undefined;
      const prepared = setup ? setup({ ...template }) : template;
      const body = typeof prepared.body === 'string' ? prepared.body : undefined;
      const headers: Record<string, string> = { ...(prepared.headers as Record<string, string> | undefined) };
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: prepared.method ?? 'GET',
          path: prepared.path ?? '/',
          headers,
          timeout: 30_000,
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            const code = String(res.statusCode);
            statuses[code] = (statuses[code] ?? 0) + 1;
            if (res.statusCode === spec.successStatus) latencies.push(performance.now() - dueAt);
            settle();
          });
        },
      );
      req.once('timeout', () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.once('error', () => {
        errors++;
        settle();
      });
      req.end(body);
    };
    const settle = () => {
      answered++;
      if (sent >= total && answered >= sent) finish();
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && startedAt + sent * intervalMs <= now) send(startedAt + sent++ * intervalMs);
      if (sent < total) timer = setTimeout(tick, Math.max(0, startedAt + sent * intervalMs - performance.now()));
    };
    tick();
  });
}

function summarise(
  spec: LoadSpec & { overallRate: number },
  latencies: number[],
  statuses: Record<string, number>,
  errors: number,
  timeouts: number,
  durationS: number,
): HttpRunResult {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  const succeeded = statuses[String(spec.successStatus)] ?? 0;
  return {
    label: spec.label,
    connections: spec.connections,
    requestedRate: spec.overallRate,
    durationS: round(durationS),
    statuses,
    succeeded,
    succeededPerSecond: durationS > 0 ? succeeded / durationS : 0,
    latencyMs: {
      mean: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)),
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: round(latencies.at(-1) ?? 0),
    },
    errors,
    timeouts,
  };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
