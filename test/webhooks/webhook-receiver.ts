import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  at: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  body: string;
}

/** An HTTP status to answer with, or 'hang' to never answer (the sender's time-out must cut it off). */
export type Reply = number | 'hang';

/**
 * A merchant's webhook endpoint, for tests: a real HTTP server on a free port that records every request and
 * answers with the replies it was given, in order, then 200.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly replies: Reply[] = [];
  private readonly hanging: ServerResponse[] = [];
  private readonly waiters: { count: number; resolve: () => void }[] = [];

  private readonly server: Server;
  private url_ = '';

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.onRequest(req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
  }

  static async start(path = '/hooks/payouts'): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.server.address() as AddressInfo;
    receiver.url_ = `http://127.0.0.1:${port}${path}`;
    return receiver;
  }

  /** Where the endpoint listens. */
  get url(): string {
    return this.url_;
  }

  /** The next requests get these answers, in order; after them, 200. */
  answerWith(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

  /** Forgets the answers not given yet: from now on, 200. */
  answerOk(): void {
    this.replies.length = 0;
  }

  /** Resolves once `count` requests have arrived in all; fails after `timeoutMs`. */
  async requests(count: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    if (this.received.length < count) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${this.received.length} of ${count} webhook requests within ${timeoutMs} ms`)),
          timeoutMs,
        );
        this.waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    }
    return this.received.slice(0, count);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onRequest(headers: IncomingHttpHeaders, body: string, res: ServerResponse): void {
    this.received.push({ at: Date.now(), headers, body });
    const reply = this.replies.shift() ?? 200;
    if (reply === 'hang') this.hanging.push(res);
    else res.writeHead(reply, { 'Content-Type': 'text/plain' }).end(reply < 300 ? 'ok' : 'not now');
    for (const waiter of this.waiters.filter((w) => this.received.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}

/** A URL on a port nothing listens on (it was free a moment ago), for an endpoint that refuses connections. */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks/payouts`;
}
