import { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DRAIN_MS } from '@payout/api';
import { AppProcess } from '../support/app-process.js';

// The API behind a load balancer keeps connections alive for 65 s, longer than its pod's grace
// (deploy/kubernetes/base/api-deployment.yaml): on SIGTERM it must not wait them out (docs/scaling.md,
// "Stopping within the grace").
const running: AppProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.stop()));
});

async function startApiProcess(): Promise<{ api: AppProcess; adminPort: number }> {
  const api = AppProcess.start('api', {
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    ADMIN_HOST: '127.0.0.1',
    METRICS_PORT: '0',
  });
  running.push(api);
  await api.logged('api listening', 60_000);
  const line = api.lines.find((l) => l.msg === 'api listening')!;
  return { api, adminPort: Number(line.adminPort) };
}

function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => resolve(socket));
  });
}

/** What the server sends on the socket: so far, and all of it once it closes the connection. */
function received(socket: Socket): { text: () => string; closed: Promise<string> } {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { text: () => text, closed: new Promise((resolve) => socket.once('close', () => resolve(text))) };
}

const signIn = (length: number) =>
  `POST /admin/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('the API stopping', () => {
  it('when SIGTERM comes with an idle keep-alive connection and a request in flight, then the request is answered and the process ends promptly', async () => {
    const { api, adminPort } = await startApiProcess();

    // One connection kept alive after a whole request, idle when the signal comes.
    const idle = await connect(adminPort);
    const idleText = received(idle);
    const body = '{}';
    idle.write(signIn(body.length) + body);
    // Answered whole, and the connection left open.
    await expect.poll(() => idleText.text(), { timeout: 20_000 }).toMatch(/^HTTP\/1\.1 \d{3}/);
    expect(idleText.text()).not.toMatch(/\r\nConnection: close\r\n/i);

    // One whose request is half sent: in flight when the signal comes.
    const busy = await connect(adminPort);
    const busyText = received(busy);
    busy.write(signIn(body.length) + body.slice(0, 1));

    const signalled = Date.now();
    api.kill('SIGTERM');
    await api.logged('stopping: finishing requests in flight');
    busy.write(body.slice(1));

    const exit = await api.exited;
    const tookMs = Date.now() - signalled;
    expect(exit.code).toBe(0);
    // Before the drain's end would have closed them by force, and nowhere near the 65 s keep-alive.
    expect(tookMs).toBeLessThan(DRAIN_MS);
    await idleText.closed;
    const answer = await busyText.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 (4\d\d|2\d\d)/);
  }, 90_000);
});
