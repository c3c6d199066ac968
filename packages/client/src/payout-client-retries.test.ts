import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PayoutClientError } from './errors.js';
import { PayoutClient } from './payout-client.js';
import type { RetryPolicy } from './transport.js';

// The client's retry rules against a stub gateway: a real HTTP server that answers what each test scripts
// (a 503, a 429 with Retry-After, an answer that never comes), so every rule is met deterministically.

type Reply = { status: number; body: string; headers?: Record<string, string> } | 'hang';

interface Received {
  at: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

class StubGateway {
  readonly received: Received[] = [];
  private readonly hanging: ServerResponse[] = [];

  private constructor(
    private readonly server: Server,
    private readonly replies: Reply[],
  ) {}

  static async start(...replies: Reply[]): Promise<StubGateway> {
    const server = createServer();
    const stub = new StubGateway(server, replies);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        stub.received.push({
          at: Date.now(),
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const reply = stub.replies.shift() ?? { status: 500, body: '{"error":true}' };
        if (reply === 'hang') stub.hanging.push(res);
        else res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return stub;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  client(retry: Partial<RetryPolicy> = {}): PayoutClient {
    return new PayoutClient({
      baseUrl: this.url,
      mid: 'ACME01',
      token: 'tok_secret',
      retry: { firstDelayMs: 20, maxDelayMs: 100, attemptTimeoutMs: 2_000, deadlineMs: 5_000, ...retry },
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const stubs: StubGateway[] = [];
async function stub(...replies: Reply[]): Promise<StubGateway> {
  const started = await StubGateway.start(...replies);
  stubs.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});

const UNAVAILABLE: Reply = {
  status: 503,
  body: '{"error":true,"status_code":503,"status":"SERVICE UNAVAILABLE","message":"down"}',
};
const PENDING_UPI =
  '{"error":false,"status_code":202,"status":"PENDING","account":"asha@okhdfc","Amount":101.00,"Bankriff":"",' +
  '"Ack_no":"06F3K9Q2ZC4M7XR1B8TD","TransactionID":12345678901234567890123,"message":"MP006 - Your transaction is in progress"}';
const NOT_FOUND = JSON.stringify({
  error: true,
  status_code: 404,
  status: 'NOT FOUND',
  message: 'Transaction not found, Please Contact the Administrator.',
  TransactionID: '12345678901234567890123',
});
const lookup = (status: 'Pending' | 'Success' | 'Failed', message: string) =>
  JSON.stringify({
    error: false,
    status_code: 200,
    status,
    account: 'asha@okhdfc',
    ifsc: '',
    Amount: '101.00',
    Bankriff: status === 'Success' ? '412345678901' : '',
    Ack_no: '06F3K9Q2ZC4M7XR1B8TD',
    TransactionID: '12345678901234567890123',
    mode: 'UPI',
    message,
  });

const upiRequest = {
  TransactionID: 12345678901234567890123n,
  Amount: '101.00',
  Upi: 'asha@okhdfc',
  Name: 'Asha Kumar',
};

describe('PayoutClient retries', () => {
  it('when a payout meets 503 twice, then the very same request (same TransactionID) is sent again until it is answered', async () => {
    const gateway = await stub(UNAVAILABLE, UNAVAILABLE, { status: 202, body: PENDING_UPI });
    const outcome = await gateway.client().upiPayout(upiRequest);

    expect(outcome.kind).toBe('pending');
    expect(gateway.received).toHaveLength(3);
    const bodies = new Set(gateway.received.map((r) => r.body));
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]!)).toMatchObject({ TransactionID: '12345678901234567890123', Amount: '101.00' });
    expect(gateway.received[0]!.headers).toMatchObject({
      mid: 'ACME01',
      token: 'tok_secret',
      'content-type': 'application/json',
    });
  });

  it("when a POST is retried, then every attempt carries the call's one Idempotency-Key, and the next call a new one", async () => {
    const gateway = await stub(UNAVAILABLE, { status: 202, body: PENDING_UPI }, { status: 202, body: PENDING_UPI });
    const client = gateway.client();

    await client.upiPayout(upiRequest);
    await client.upiPayout(upiRequest);

    const keys = gateway.received.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('when the caller names an Idempotency-Key, then it is sent as given; a lookup and a webhook secret without one send none', async () => {
    const gateway = await stub(
      { status: 202, body: PENDING_UPI },
      { status: 200, body: lookup('Pending', 'MP006 - Your transaction is in progress') },
      { status: 404, body: NOT_FOUND },
    );
    const client = gateway.client();

    await client.upiPayout(upiRequest, { idempotencyKey: 'salary-2026-12-run-7' });
    await client.getPayoutStatus(upiRequest.TransactionID);
    await client.rotateWebhookSecret();

    expect(gateway.received.map((r) => [r.method, r.headers['idempotency-key']])).toEqual([
      ['POST', 'salary-2026-12-run-7'],
      ['GET', undefined],
      ['POST', undefined],
    ]);
  });

  it('when an attempt gets no answer in time, then it is abandoned and the request sent again', async () => {
    const gateway = await stub('hang', { status: 202, body: PENDING_UPI });
    const outcome = await gateway.client({ attemptTimeoutMs: 300 }).upiPayout(upiRequest);

    expect(outcome.kind).toBe('pending');
    expect(gateway.received).toHaveLength(2);
    expect(gateway.received[1]!.body).toBe(gateway.received[0]!.body);
  });

  it('when the gateway answers 429 with Retry-After: 1, then the next attempt waits at least that second', async () => {
    const gateway = await stub(
      {
        status: 429,
        body: '{"error":true,"status_code":429,"status":"TOO MANY REQUESTS","message":"slow down"}',
        headers: { 'Retry-After': '1' },
      },
      {
        status: 200,
        body: '{"error":false,"status_code":200,"status":"Success","mainwallet":"4765.00","message":"Success."}',
      },
    );
    const outcome = await gateway.client().getMainWallet();

    expect(outcome).toMatchObject({ kind: 'found', balance: '4765.00' });
    expect(gateway.received).toHaveLength(2);
    expect(gateway.received[1]!.at - gateway.received[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('when only 503s come until the deadline, then GAVE_UP saying the payout may exist, within the deadline', async () => {
    const gateway = await stub(...Array.from({ length: 100 }, () => UNAVAILABLE));
    const started = Date.now();
    const error = await gateway
      .client({ deadlineMs: 800 })
      .upiPayout(upiRequest)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PayoutClientError);
    expect(error).toMatchObject({
      code: 'GAVE_UP',
      details: { httpStatus: 503, transactionId: '12345678901234567890123' },
    });
    expect((error as Error).message).toMatch(/same TransactionID/);
    expect(gateway.received.length).toBeGreaterThan(2);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('when a 503 is followed by no answer at all until the deadline, then GAVE_UP still reports the 503 it last saw', async () => {
    const gateway = await stub(UNAVAILABLE, ...Array.from({ length: 20 }, () => 'hang' as const));
    const error = await gateway
      .client({ deadlineMs: 600 })
      .upiPayout(upiRequest)
      .catch((e: unknown) => e);

    expect(error).toMatchObject({
      code: 'GAVE_UP',
      details: { httpStatus: 503, transactionId: '12345678901234567890123' },
    });
    expect((error as PayoutClientError).details.last).not.toMatch(/HTTP 503/);
  });

  it('when the credentials are refused (401), then UNAUTHORIZED at once, never retried', async () => {
    const gateway = await stub({
      status: 401,
      body: '{"error":true,"status_code":401,"status":"UNAUTHORIZED","message":"Authentication credentials are missing or invalid."}',
    });
    await expect(gateway.client().getPayoutStatus('42')).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      details: { httpStatus: 401 },
    });
    expect(gateway.received).toHaveLength(1);
  });

  it('when a 200 is not JSON (a proxy page), then UNEXPECTED_ANSWER with the text, not a crash', async () => {
    const gateway = await stub({ status: 200, body: '<html>maintenance</html>' });
    await expect(gateway.client().getMainWallet()).rejects.toMatchObject({
      code: 'UNEXPECTED_ANSWER',
      details: { httpStatus: 200, last: '<html>maintenance</html>' },
    });
  });

  it('when the caller aborts during the retries, then the call ends with the abort and sends nothing more', async () => {
    const gateway = await stub(...Array.from({ length: 100 }, () => UNAVAILABLE));
    const controller = new AbortController();
    const call = gateway
      .client({ firstDelayMs: 200, maxDelayMs: 200 })
      .upiPayout(upiRequest, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('merchant shut down')), 300);

    await expect(call).rejects.toThrow('merchant shut down');
    const sent = gateway.received.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(gateway.received.length).toBe(sent);
  });

  it('when the gateway sits behind a path prefix, then requests keep the prefix', async () => {
    const gateway = await stub({
      status: 200,
      body: '{"error":false,"status_code":200,"status":"Success","mainwallet":"1.00","message":"Success."}',
    });
    const client = new PayoutClient({ baseUrl: `${gateway.url}/gateway/`, mid: 'ACME01', token: 'tok_secret' });
    expect(await client.getMainWallet()).toMatchObject({ kind: 'found', balance: '1.00' });
    expect(gateway.received[0]!.url).toBe('/gateway/api/checkMainWallet?PayoutType=Main_Wallet_Balance');
  });

  it('when numbers are passed where digits are needed, then TypeError before anything is sent', async () => {
    const gateway = await stub();
    const client = gateway.client();
    await expect(client.upiPayout({ ...upiRequest, TransactionID: 42 as unknown as string })).rejects.toThrow(
      TypeError,
    );
    await expect(client.upiPayout({ ...upiRequest, Amount: 101.5 as unknown as string })).rejects.toThrow(/Amount/);
    await expect(client.getPayoutStatus('12 OR 1=1')).rejects.toThrow(TypeError);
    expect(gateway.received).toHaveLength(0);
  });
});

describe('PayoutClient.waitForFinal', () => {
  it('when lookups meet a 429 with Retry-After, then it waits that long and still answers the final outcome', async () => {
    const gateway = await stub(
      { status: 200, body: lookup('Pending', 'MP006 - Your transaction is in progress') },
      {
        status: 429,
        body: '{"error":true,"status_code":429,"status":"TOO MANY REQUESTS","message":"slow"}',
        headers: { 'Retry-After': '1' },
      },
      { status: 200, body: lookup('Success', 'MP00 - Transaction successful') },
    );
    const outcome = await gateway.client().waitForFinal(12345678901234567890123n, { firstDelayMs: 20, maxDelayMs: 50 });

    expect(outcome).toMatchObject({
      kind: 'success',
      payout: { TransactionID: '12345678901234567890123', Bankriff: '412345678901' },
    });
    expect(gateway.received).toHaveLength(3);
    expect(gateway.received[2]!.at - gateway.received[1]!.at).toBeGreaterThanOrEqual(950);
    expect(
      gateway.received.every((r) => r.url === '/api/check_payout_status?TransactionID=12345678901234567890123'),
    ).toBe(true);
  });

  it('when the first lookup does not find the payout yet (a lagging replica), then it keeps looking', async () => {
    const gateway = await stub(
      { status: 404, body: NOT_FOUND },
      { status: 200, body: lookup('Pending', 'MP006 - Your transaction is in progress') },
      { status: 200, body: lookup('Failed', 'MP007 - Transaction failed: declined by beneficiary bank') },
    );
    const outcome = await gateway
      .client()
      .waitForFinal('12345678901234567890123', { firstDelayMs: 20, maxDelayMs: 50 });

    expect(outcome).toMatchObject({ kind: 'failed', reason: 'declined by beneficiary bank' });
    expect(gateway.received).toHaveLength(3);
  });

  it('when the payout is never found, then not_found once the grace has passed', async () => {
    const gateway = await stub(...Array.from({ length: 50 }, () => ({ status: 404, body: NOT_FOUND })));
    const started = Date.now();
    const outcome = await gateway.client().waitForFinal('12345678901234567890123', {
      firstDelayMs: 20,
      maxDelayMs: 50,
      notFoundGraceMs: 300,
    });

    expect(outcome).toMatchObject({ kind: 'not_found', httpStatus: 404, TransactionID: '12345678901234567890123' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('when the payout stays pending past the deadline, then the last pending outcome, after spaced lookups', async () => {
    const gateway = await stub(
      ...Array.from({ length: 50 }, () => ({
        status: 200,
        body: lookup('Pending', 'MP006 - Your transaction is in progress'),
      })),
    );
    const started = Date.now();
    const outcome = await gateway.client().waitForFinal('12345678901234567890123', {
      deadlineMs: 600,
      firstDelayMs: 50,
      maxDelayMs: 200,
    });

    expect(outcome.kind).toBe('pending');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    // Backoff, not a busy loop: 600 ms at a 50–200 ms growing spacing is a handful of lookups.
    expect(gateway.received.length).toBeGreaterThan(2);
    expect(gateway.received.length).toBeLessThan(12);
  });
});

describe('PayoutClient retries of bulk payouts and validation', () => {
  const BULK_ACCEPTED =
    '{"error":false,"status_code":202,"status":"ACCEPTED","BatchID":98765432109876543210987,"total":1,' +
    '"accepted":1,"failed":0,"rejected":0,"message":"Batch received","results":[' +
    PENDING_UPI.replace(/}$/, ',"index":0}') +
    ']}';
  const RAIL_UNAVAILABLE: Reply = {
    status: 503,
    body: '{"error":true,"status_code":503,"status":"SERVICE UNAVAILABLE","message":"The bank did not answer in time"}',
  };

  it('when a batch meets 503 and then a time-out, then the very same batch (same BatchID) is sent again until it is answered', async () => {
    const gateway = await stub(UNAVAILABLE, 'hang', { status: 202, body: BULK_ACCEPTED });
    const outcome = await gateway.client({ attemptTimeoutMs: 300 }).bulkPayout({
      BatchID: 98765432109876543210987n,
      Payouts: [{ ...upiRequest, Mode: 'UPI' }],
    });

    expect(outcome).toMatchObject({
      kind: 'accepted',
      batch: { BatchID: '98765432109876543210987' },
      results: [{ index: 0, kind: 'pending', payout: { TransactionID: '12345678901234567890123', Amount: '101.00' } }],
    });
    expect(gateway.received).toHaveLength(3);
    expect(new Set(gateway.received.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(gateway.received[0]!.body)).toEqual({
      BatchID: '98765432109876543210987',
      Payouts: [{ ...upiRequest, TransactionID: '12345678901234567890123', Mode: 'UPI' }],
    });
  });

  it('when a validation meets 503 (the bank did not answer), then it is asked again and answers the verdict', async () => {
    const valid = JSON.stringify({
      error: false,
      status_code: 200,
      status: 'VALID',
      upi: 'asha@okhdfc',
      registered_name: 'ASHA KUMAR',
      message: 'Beneficiary is valid',
    });
    const gateway = await stub(RAIL_UNAVAILABLE, { status: 200, body: valid });
    expect(await gateway.client().validateUpi({ Upi: 'asha@okhdfc' })).toMatchObject({
      kind: 'valid',
      registeredName: 'ASHA KUMAR',
    });
    expect(gateway.received).toHaveLength(2);
    expect(gateway.received[1]!.body).toBe(gateway.received[0]!.body);
  });

  it('when a BatchID is a number or not digits, then TypeError before anything is sent', async () => {
    const gateway = await stub();
    const client = gateway.client();
    await expect(
      client.bulkPayout({ BatchID: 1 as unknown as bigint, Payouts: [{ ...upiRequest, Mode: 'UPI' }] }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(client.getBulkPayoutStatus('12/../34')).rejects.toBeInstanceOf(TypeError);
    expect(gateway.received).toHaveLength(0);
  });
});
