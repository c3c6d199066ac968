import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRailAdapter } from './rail-factory.js';
import type { RailAdapter } from './rail-adapter.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A rail that answers PENDING for every status after `delayMs` (never, when null), counting its connections. */
async function slowRail(delayMs: number | null) {
  const seen = { paths: [] as string[], connections: 0, url: '' };
  const server = createServer((request, response) => {
    seen.paths.push(request.url ?? '');
    if (delayMs === null) return;
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ reference: 'ACK1', status: 'PENDING' }));
    }, delayMs);
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  seen.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return seen;
}

function built(adapter: RailAdapter): RailAdapter {
  closers.unshift(() => adapter.close());
  return adapter;
}

describe('createRailAdapter', () => {
  it("when given an app's rail settings, then it calls the rail at RAIL_BASE_URL, path prefix kept", async () => {
    const rail = await slowRail(0);
    const adapter = built(
      createRailAdapter({
        RAIL_BASE_URL: `${rail.url}/bank`,
        RAIL_CONNECT_TIMEOUT_MS: 1_000,
        RAIL_RESPONSE_TIMEOUT_MS: 2_000,
      }),
    );
    expect(await adapter.status('ACK1')).toMatchObject({ outcome: 'PENDING' });
    expect(rail.paths).toEqual(['/bank/v1/payouts/ACK1']);
  });

  it('when the rail does not answer within RAIL_RESPONSE_TIMEOUT_MS, then the answer is UNKNOWN', async () => {
    const rail = await slowRail(null);
    const adapter = built(
      createRailAdapter({ RAIL_BASE_URL: rail.url, RAIL_CONNECT_TIMEOUT_MS: 1_000, RAIL_RESPONSE_TIMEOUT_MS: 150 }),
    );
    expect(await adapter.status('ACK1')).toEqual({
      outcome: 'UNKNOWN',
      detail: 'no reply from the rail within 150 ms',
    });
  });

  it('when given maxConnections, then calls beyond it wait for an open connection', async () => {
    const rail = await slowRail(20);
    const adapter = built(
      createRailAdapter(
        { RAIL_BASE_URL: rail.url, RAIL_CONNECT_TIMEOUT_MS: 1_000, RAIL_RESPONSE_TIMEOUT_MS: 2_000 },
        { maxConnections: 1 },
      ),
    );
    const answers = await Promise.all(Array.from({ length: 4 }, () => adapter.status('ACK1')));
    expect(answers.map((a) => a.outcome)).toEqual(Array(4).fill('PENDING'));
    expect(rail.connections).toBe(1);
  });
});
