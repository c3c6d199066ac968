import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A bank written for these tests, not apps/rail-sim: it behaves the way real banks do (docs/bank-boundary.md),
// each manner switched on per test. It speaks the rail API the worker's HTTP adapter speaks (docs/rail-sim.md):
// POST /v1/payouts, GET /v1/payouts/:reference.

/** The garbled replies a bank's front end sends now and then (docs/bank-boundary.md). */
export type Garbage = 'html-502' | 'truncated-json' | 'long-utr' | 'nul-in-json';

export interface BankManners {
  /** What the bank does with a new reference: pay it, or decline it. Default pay. */
  decide?: (reference: string) => 'pay' | 'decline';
  /** Refuse every submit with this 4xx body instead of looking at it (a bank that will not take it). */
  refuseEverySubmit?: { status: number; body: unknown };
  /** A reference it already holds, submitted again, is refused with 400 DUPLICATE_REFERENCE. */
  strictDuplicates?: boolean;
  /** The reply to the first submit of each reference never comes (the money moves all the same). */
  loseFirstReply?: boolean;
  /** The first submit's reply is garbled (the money moves all the same). */
  garbleFirstReply?: Garbage;
  /** The status API says NOT_FOUND for this long after the bank took the reference. */
  statusLagMs?: number;
  /** Deemed success: PENDING for this long after the submit, then SUCCESS. */
  deemedAfterMs?: number;
  /** A paid reference comes back this long after it was paid: REVERSED. */
  reverseAfterMs?: number;
  /** The status API's answer for a reference, overriding the bank's book (a bank contradicting itself). */
  statusSays?: (reference: string) => Record<string, unknown> | undefined;
  /** Hold every submit reply until the test calls `releaseSubmits()`. */
  holdSubmits?: boolean;
}

interface Held {
  reference: string;
  acceptedAt: number;
  status: 'SUCCESS' | 'FAILED';
  utr: string;
  submissions: number;
}

export interface StubBank {
  url: string;
  /** References the bank took, with what it did. */
  book: Map<string, Held>;
  /** References whose money the bank moved (and did not get back). */
  paid(): string[];
  /** References paid and come back. */
  reversed(): string[];
  submits: number;
  statusCalls: number;
  /** Sends the replies of held submits (as the bank's book now says). */
  releaseSubmits(): void;
  close(): Promise<void>;
}

let utrCounter = 100_000_000_000;

export async function startStubBank(manners: BankManners = {}): Promise<StubBank> {
  const book = new Map<string, Held>();
  const held: (() => void)[] = [];
  const bank: StubBank = {
    url: '',
    book,
    paid: () => [...book.values()].filter((h) => h.status === 'SUCCESS' && !isReversed(h)).map((h) => h.reference),
    reversed: () => [...book.values()].filter(isReversed).map((h) => h.reference),
    submits: 0,
    statusCalls: 0,
    releaseSubmits: () => held.splice(0).forEach((send) => send()),
    close: () => Promise.resolve(),
  };

  function isReversed(h: Held): boolean {
    return (
      h.status === 'SUCCESS' &&
      manners.reverseAfterMs !== undefined &&
      Date.now() >= h.acceptedAt + manners.reverseAfterMs
    );
  }

  function current(h: Held): Record<string, unknown> {
    if (manners.deemedAfterMs !== undefined && Date.now() < h.acceptedAt + manners.deemedAfterMs) {
      return { reference: h.reference, status: 'PENDING' };
    }
    if (h.status === 'FAILED')
      return { reference: h.reference, status: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' };
    return { reference: h.reference, status: isReversed(h) ? 'REVERSED' : 'SUCCESS', utr: h.utr };
  }

  function onSubmit(body: string, response: ServerResponse): void {
    bank.submits++;
    if (manners.refuseEverySubmit) {
      send(response, manners.refuseEverySubmit.status, manners.refuseEverySubmit.body);
      return;
    }
    const { reference } = JSON.parse(body) as { reference: string };
    const known = book.get(reference);
    if (known) {
      known.submissions++;
      if (manners.strictDuplicates) {
        send(response, 400, { error: 'DUPLICATE_REFERENCE' });
        return;
      }
      send(response, 200, current(known));
      return;
    }
    const decision = manners.decide?.(reference) ?? 'pay';
    const taken: Held = {
      reference,
      acceptedAt: Date.now(),
      status: decision === 'pay' ? 'SUCCESS' : 'FAILED',
      utr: String(utrCounter++),
      submissions: 1,
    };
    book.set(reference, taken);
    if (manners.loseFirstReply) return; // the connection stays open until the client gives up
    if (manners.garbleFirstReply) {
      garble(response, manners.garbleFirstReply, taken);
      return;
    }
    if (manners.holdSubmits) {
      held.push(() => send(response, 200, current(taken)));
      return;
    }
    send(response, 200, current(taken));
  }

  function onStatus(reference: string, response: ServerResponse): void {
    bank.statusCalls++;
    const override = manners.statusSays?.(reference);
    if (override) {
      send(response, 200, override);
      return;
    }
    const known = book.get(reference);
    const lagging = known && manners.statusLagMs !== undefined && Date.now() < known.acceptedAt + manners.statusLagMs;
    if (!known || lagging) {
      send(response, 404, { reference, status: 'NOT_FOUND' });
      return;
    }
    send(response, 200, current(known));
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      if (request.method === 'POST' && url === '/v1/payouts') onSubmit(body, response);
      else if (request.method === 'GET' && url.startsWith('/v1/payouts/'))
        onStatus(decodeURIComponent(url.slice('/v1/payouts/'.length)), response);
      else send(response, 404, { error: 'NOT_FOUND' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bank.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  bank.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return bank;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function garble(response: ServerResponse, garbage: Garbage, taken: Held): void {
  const raw = (status: number, type: string, text: string) => {
    response.writeHead(status, { 'content-type': type });
    response.end(text);
  };
  switch (garbage) {
    case 'html-502':
      raw(502, 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    case 'truncated-json':
      raw(200, 'application/json', `{"reference":"${taken.reference}","status":"SUCC`);
      return;
    case 'long-utr':
      raw(
        200,
        'application/json',
        JSON.stringify({ reference: taken.reference, status: 'SUCCESS', utr: '7'.repeat(80) }),
      );
      return;
    case 'nul-in-json':
      raw(200, 'application/json', `{"reference":"${taken.reference}","status":"SUCCESS","utr":"${taken.utr}\u0000"}`);
      return;
  }
}
