import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** What the stub bank says about one reference when asked `GET /v1/payouts/<reference>`. */
export type StubBankAnswer =
  | { status: 'SUCCESS'; utr: string }
  | { status: 'FAILED'; reason: string }
  | { status: 'PENDING' }
  | { status: 'NOT_FOUND' }
  /** The bank is in trouble: HTTP 503, which says nothing about the payout. */
  | { status: 'DOWN' };

export interface StubBank {
  url: string;
  /** Sets what the bank says about `reference` from now on. */
  answer(reference: string, answer: StubBankAnswer): void;
  /** References asked about, in order. */
  readonly asked: string[];
}

/**
 * A tiny bank for one test file: a node:http server that answers status inquiries for each reference as
 * the test told it to (NOT_FOUND for any other), in the rail's wire format (docs/rail-sim.md).
 */
export function useStubBank(): { readonly current: StubBank } {
  let server: Server | undefined;
  let bank: StubBank | undefined;
  beforeAll(async () => {
    const answers = new Map<string, StubBankAnswer>();
    const asked: string[] = [];
    server = createServer((req, res) => {
      const match = /^\/v1\/payouts\/([^/?]+)$/.exec(req.url ?? '');
      const send = (code: number, body: unknown) => {
        res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (req.method !== 'GET' || !match) {
        send(404, { error: 'NOT_FOUND' });
        return;
      }
      const reference = decodeURIComponent(match[1]!);
      asked.push(reference);
      const answer = answers.get(reference) ?? { status: 'NOT_FOUND' };
      if (answer.status === 'DOWN') {
        send(503, { error: 'SERVICE_UNAVAILABLE' });
        return;
      }
      if (answer.status === 'NOT_FOUND') {
        send(404, { reference, status: 'NOT_FOUND' });
        return;
      }
      send(200, { reference, ...answer });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    bank = { url: `http://127.0.0.1:${port}`, answer: (ref, a) => answers.set(ref, a), asked };
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  return {
    get current() {
      if (!bank) throw new Error('the stub bank is not started yet');
      return bank;
    },
  };
}
