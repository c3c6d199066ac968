import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPacedLoad } from '../../bench/paced-load.js';

// The half-load p99 comes from this generator (docs/performance.md, "What each stage measures"): it must
// send exactly rate × duration requests, each as the request template sets it up, and count every answer.
let server: Server;
let url: string;
const received: { method?: string; url?: string; mid?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, mid: req.headers.mid as string | undefined, body });
      res.statusCode = received.length % 10 === 0 ? 409 : 202;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('startPacedLoad', () => {
  it('when run at a rate for a time after a warm-up, then it sends rate × (warm-up + time) requests as set up and counts every measured answer by status', async () => {
    let n = 0;
    const load = startPacedLoad({
      label: 'paced',
      url,
      connections: 4,
      durationS: 0.5,
      warmupS: 0.2,
      overallRate: 100,
      successStatus: 202,
      signal: new AbortController().signal,
      requests: [
        {
          method: 'POST',
          path: '/api/payout',
          setupRequest: (request) => ({ ...request, headers: { mid: `M${++n}` }, body: `{"n":${n}}` }),
        },
      ],
    });
    await load.measuring;
    const warmedUp = received.length;
    const result = await load.done;

    // 20 warm-up requests, then 50 measured; the warm-up's were all sent before the measured ones began.
    expect(received).toHaveLength(70);
    expect(warmedUp).toBeLessThanOrEqual(20);
    expect(received.every((r) => r.method === 'POST' && r.url === '/api/payout')).toBe(true);
    expect(new Set(received.map((r) => r.mid)).size).toBe(70);
    // Each request's body is the one its own setup made, sent whole.
    expect(received.every((r) => r.mid === `M${(JSON.parse(r.body) as { n: number }).n}`)).toBe(true);
    // Every 10th answer is a 409: the 70 answers hold 7, of which 5 fall among the 50 measured ones.
    expect(result.statuses).toEqual({ '202': 45, '409': 5 });
    expect(result.succeeded).toBe(45);
    expect(result.requestedRate).toBe(100);
    expect(result.errors).toBe(0);
    expect(result.latencyMs.p99).toBeGreaterThanOrEqual(result.latencyMs.p50);
  });
});
