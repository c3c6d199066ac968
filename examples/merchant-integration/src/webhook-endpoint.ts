import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookEvent } from '@payout/client';

export interface WebhookEndpoint {
  url: string;
  close(): Promise<void>;
}

/**
 * The merchant's webhook endpoint: keeps the body exactly as it arrived (the signature covers those bytes),
 * verifies it, answers at once (204, or 401 for a delivery that is not genuine) and only then hands the
 * event on. Deliveries come at least once and in any order: `onEvent` must be idempotent (see main.ts).
 */
export async function startWebhookEndpoint(options: {
  port: number;
  path: string;
  secret: string;
  onEvent: (event: WebhookEvent) => void;
  onRefused?: (reason: string) => void;
}): Promise<WebhookEndpoint> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== options.path) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void verifyWebhook({ rawBody: Buffer.concat(chunks), headers: req.headers, secret: options.secret }).then(
        (verified) => {
          if (!verified.ok) {
            res.writeHead(401).end();
            options.onRefused?.(verified.reason);
            return;
          }
          res.writeHead(204).end();
          options.onEvent(verified.event);
        },
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
