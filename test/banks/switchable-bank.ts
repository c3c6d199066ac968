import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A sponsor bank written for the several-banks tests (docs/banks.md): it speaks the rail API the worker's HTTP
// adapter speaks (POST /v1/payouts, GET /v1/payouts/:reference), pays what it takes, and can be switched
// down — every submit answered 503, nothing taken — and up again while the test runs. Its status API always
// tells its book: NOT_FOUND for a reference it never took, as a bank that was down says of what it never got.

export interface SwitchableBank {
  url: string;
  /** 'up' pays every new reference; 'down' answers every submit 503 and takes nothing. */
  manner: 'up' | 'down';
  /** When each submit of each reference arrived, whatever the answer. */
  submits: Map<string, number[]>;
  /** The references it paid, with when. */
  paid: Map<string, number>;
  close(): Promise<void>;
}

let utrCounter = 500_000_000_000;

export async function startSwitchableBank(manner: SwitchableBank['manner'] = 'up'): Promise<SwitchableBank> {
  const book = new Map<string, string>();
  const bank: SwitchableBank = {
    url: '',
    manner,
    submits: new Map(),
    paid: new Map(),
    close: () => Promise.resolve(),
  };

  function onSubmit(body: string, response: ServerResponse): void {
    const { reference } = JSON.parse(body) as { reference: string };
    bank.submits.set(reference, [...(bank.submits.get(reference) ?? []), Date.now()]);
    const known = book.get(reference);
    if (known) {
      send(response, 200, { reference, status: 'SUCCESS', utr: known });
      return;
    }
    if (bank.manner === 'down') {
      send(response, 503, { error: 'SERVICE_UNAVAILABLE' });
      return;
    }
    const utr = String(utrCounter++);
    book.set(reference, utr);
    bank.paid.set(reference, Date.now());
    send(response, 200, { reference, status: 'SUCCESS', utr });
  }

  function onStatus(reference: string, response: ServerResponse): void {
    const utr = book.get(reference);
    if (!utr) {
      send(response, 404, { reference, status: 'NOT_FOUND' });
      return;
    }
    send(response, 200, { reference, status: 'SUCCESS', utr });
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
