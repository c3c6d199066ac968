import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A sponsor bank written for the several-banks tests (docs/banks.md): it speaks the rail API the worker's HTTP
// adapter speaks (POST /v1/payouts, GET /v1/payouts/:reference), pays what it takes, and can be switched
// down — every submit answered 503, nothing taken — and up again while the test runs; or made to answer
// nothing (each submit held unanswered, so the caller times out) or to refuse connections (its port closed).
// Its status API always tells its book: NOT_FOUND for a reference it never took, as a bank that was down says
// of what it never got.

/**
 * 'up' pays every new reference; 'down' answers every submit 503 and takes nothing; 'hang' holds every submit
 * unanswered and takes nothing; 'refused' closes its port (every connection refused) until switched again.
 * 'up' and 'down' answer status checks from the book; 'hang' and 'refused' answer nothing at all.
 */
export type BankManner = 'up' | 'down' | 'hang' | 'refused';

export interface SwitchableBank {
  url: string;
  /** Set to switch it; setting 'refused' or leaving it closes or reopens the port (`switchTo` waits for that). */
  manner: BankManner;
  /** Switches it and waits until its port is closed or open again. */
  switchTo(manner: BankManner): Promise<void>;
  /** When each submit of each reference arrived, whatever the answer. */
  submits: Map<string, number[]>;
  /** When the latest submit arrived (0 before the first). */
  lastSubmitAt(): number;
  /** When each status check of each reference arrived, whatever the answer. */
  statusChecks: Map<string, number[]>;
  /** The references it paid, with when. */
  paid: Map<string, number>;
  close(): Promise<void>;
}

let utrCounter = 500_000_000_000;

export async function startSwitchableBank(initial: BankManner = 'up'): Promise<SwitchableBank> {
  const book = new Map<string, string>();
  const held = new Set<ServerResponse>();
  let manner: BankManner = 'up';
  let port = 0;
  let switching: Promise<void> = Promise.resolve();

  function onSubmit(body: string, response: ServerResponse): void {
    const { reference } = JSON.parse(body) as { reference: string };
    bank.submits.set(reference, [...(bank.submits.get(reference) ?? []), Date.now()]);
    if (manner === 'hang') {
      hold(response);
      return;
    }
    const known = book.get(reference);
    if (known) {
      send(response, 200, { reference, status: 'SUCCESS', utr: known });
      return;
    }
    if (manner === 'down') {
      send(response, 503, { error: 'SERVICE_UNAVAILABLE' });
      return;
    }
    const utr = String(utrCounter++);
    book.set(reference, utr);
    bank.paid.set(reference, Date.now());
    send(response, 200, { reference, status: 'SUCCESS', utr });
  }

  function onStatus(reference: string, response: ServerResponse): void {
    bank.statusChecks.set(reference, [...(bank.statusChecks.get(reference) ?? []), Date.now()]);
    if (manner === 'hang') {
      hold(response);
      return;
    }
    const utr = book.get(reference);
    if (!utr) {
      send(response, 404, { reference, status: 'NOT_FOUND' });
      return;
    }
    send(response, 200, { reference, status: 'SUCCESS', utr });
  }

  /** An answer never sent: the caller's time-out cuts it off, or the bank's next switch does. */
  function hold(response: ServerResponse): void {
    held.add(response);
    response.once('close', () => held.delete(response));
  }

  function dropHeld(): void {
    for (const response of held) response.destroy();
    held.clear();
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

  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Open keep-alive connections are cut too: a bank whose port is closed answers on none of them.
      server.closeAllConnections();
    });

  function change(next: BankManner): Promise<void> {
    const from = manner;
    manner = next;
    if (from === 'hang' && next !== 'hang') dropHeld();
    if (from !== 'refused' && next === 'refused') switching = switching.then(stopListening);
    else if (from === 'refused' && next !== 'refused') switching = switching.then(listen);
    return switching;
  }

  const bank: SwitchableBank = {
    url: '',
    get manner() {
      return manner;
    },
    set manner(next: BankManner) {
      void change(next);
    },
    switchTo: change,
    submits: new Map(),
    lastSubmitAt: () => Math.max(0, ...[...bank.submits.values()].flat()),
    statusChecks: new Map(),
    paid: new Map(),
    close: async () => {
      await switching;
      dropHeld();
      if (manner !== 'refused') await stopListening();
    },
  };

  await listen();
  port = (server.address() as AddressInfo).port;
  bank.url = `http://127.0.0.1:${port}`;
  await change(initial);
  return bank;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
