import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBankRails } from './rail-factory.js';
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

const TIMEOUTS = { RAIL_CONNECT_TIMEOUT_MS: 1_000, RAIL_RESPONSE_TIMEOUT_MS: 2_000 };

describe('createBankRails', () => {
  it("when given an app's banks, then each bank's adapter calls that bank's base URL, path prefix kept", async () => {
    const [first, second] = [await slowRail(0), await slowRail(0)];
    const rails = createBankRails({
      banks: [
        { name: 'primary', baseUrl: `${first.url}/bank` },
        { name: 'secondary', baseUrl: second.url },
      ],
      ...TIMEOUTS,
    });
    closers.unshift(() => rails.close());
    expect(await rails.rail('primary').status('ACK1')).toMatchObject({ outcome: 'PENDING' });
    expect(await rails.rail('secondary').status('ACK1')).toMatchObject({ outcome: 'PENDING' });
    expect(first.paths).toEqual(['/bank/v1/payouts/ACK1']);
    expect(second.paths).toEqual(['/v1/payouts/ACK1']);
  });

  it('when asked for a bank the configuration does not name, then it throws rather than call another', async () => {
    const rail = await slowRail(0);
    const rails = createBankRails({ banks: [{ name: 'primary', baseUrl: rail.url }], ...TIMEOUTS });
    closers.unshift(() => rails.close());
    expect(() => rails.rail('elsewhere')).toThrow(/no bank named "elsewhere"/);
    expect(rail.paths).toEqual([]);
  });

  it('when the rail does not answer within RAIL_RESPONSE_TIMEOUT_MS, then the answer is UNKNOWN', async () => {
    const rail = await slowRail(null);
    const adapter = built(
      createBankRails({
        banks: [{ name: 'primary', baseUrl: rail.url }],
        RAIL_CONNECT_TIMEOUT_MS: 1_000,
        RAIL_RESPONSE_TIMEOUT_MS: 150,
      }).rail('primary'),
    );
    expect(await adapter.status('ACK1')).toEqual({
      outcome: 'UNKNOWN',
      detail: 'no reply from the rail within 150 ms',
    });
  });

  it('when given maxConnections, then calls beyond it wait for an open connection', async () => {
    const rail = await slowRail(20);
    const adapter = built(
      createBankRails({ banks: [{ name: 'primary', baseUrl: rail.url }], ...TIMEOUTS }, { maxConnections: 1 }).rail(
        'primary',
      ),
    );
    const answers = await Promise.all(Array.from({ length: 4 }, () => adapter.status('ACK1')));
    expect(answers.map((a) => a.outcome)).toEqual(Array(4).fill('PENDING'));
    expect(rail.connections).toBe(1);
  });
});
