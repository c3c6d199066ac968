// The paced load's sending loop (bench/paced-load.ts), on a thread of its own: the bench's main thread also
// samples /proc every quarter second for the CPU split, reads its apps' output and runs Prisma, and each of
// those would hold up a request that falls due meanwhile; since latency counts from when a request was due,
// that wait would be charged to the server under test. Here nothing else runs on the loop that sends the
// requests and reads the answers. Plain JavaScript, like orphan-guard.mjs: a worker thread does not
// inherit the tsx loader.
//
// workerData: { url, connections, rate, warmupCount, requests: [{ method, path, headers, body? }],
// successStatus }. The first warmupCount requests warm the connections and the JIT on both sides and are not
// counted; then the thread posts { type: 'measuring' }, sends the rest at the same pace, and posts
// { type: 'done', latencies, statuses, errors, timeouts, durationS } for the measured ones. A 'stop' message
// ends the run early (the bench was interrupted).
import { Agent, request as httpRequest } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, connections, rate, warmupCount, requests, successStatus } = workerData;
const target = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const intervalMs = 1000 / rate;
const total = requests.length;
const latencies = [];
const statuses = {};
let errors = 0;
let timeouts = 0;
let sent = 0;
let answered = 0;
let timer;
let finished = false;
const startedAt = performance.now();
const measuredFrom = startedAt + warmupCount * intervalMs;

parentPort.on('message', (message) => {
  if (message === 'stop') {
    sent = total;
    finish();
  }
});

function finish() {
  if (finished) return;
  finished = true;
  clearTimeout(timer);
  agent.destroy();
  const durationS = Math.max(0, performance.now() - measuredFrom) / 1000;
  const measured = Float64Array.from(latencies);
  parentPort.postMessage({ type: 'done', latencies: measured, statuses, errors, timeouts, durationS }, [
    measured.buffer,
  ]);
  parentPort.close();
}

function send(index, dueAt) {
  const { method, path, headers, body } = requests[index];
  const counted = index >= warmupCount;
  const req = httpRequest(
    { agent, host: target.hostname, port: target.port, method, path, headers, timeout: 30_000 },
    (res) => {
      res.resume();
      res.once('end', () => {
        if (counted) {
          const code = String(res.statusCode);
          statuses[code] = (statuses[code] ?? 0) + 1;
          if (res.statusCode === successStatus) latencies.push(performance.now() - dueAt);
        }
        settle();
      });
    },
  );
  req.once('timeout', () => {
    if (counted) timeouts++;
    req.destroy(new Error('timeout'));
  });
  req.once('error', () => {
    if (counted) errors++;
    settle();
  });
  req.end(body);
}

function settle() {
  answered++;
  if (sent >= total && answered >= sent) finish();
}

function tick() {
  const now = performance.now();
  while (sent < total && startedAt + sent * intervalMs <= now) {
    if (sent === warmupCount) parentPort.postMessage({ type: 'measuring' });
    send(sent, startedAt + sent * intervalMs);
    sent++;
  }
  if (sent < total) timer = setTimeout(tick, Math.max(0, startedAt + sent * intervalMs - performance.now()));
}

tick();
