import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpRailAdapter, type HttpRailAdapterOptions } from './http-rail-adapter.js';
import type { PayoutInstruction, RailAdapter } from './rail-adapter.js';

// A rail that answers exactly as each test scripts it, for the faults the simulator does not produce
// (unreadable bodies, cut connections, wrong references). The simulator's own tests cover the rest.
interface ScriptedRail {
  url: string;
  requests: { method: string; path: string; body: string }[];
  connections: number;
  close: () => Promise<void>;
}
type Script = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function scriptedRail(script: Script): Promise<ScriptedRail> {
  const rail: ScriptedRail = { url: '', requests: [], connections: 0, close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      rail.requests.push({ method: request.method ?? '', path: request.url ?? '', body });
      script(request, response, body);
    });
  });
  server.on('connection', () => rail.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rail.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rail.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  cleanups.push(rail.close);
  return rail;
}

function adapterFor(url: string, options: Partial<HttpRailAdapterOptions> = {}): RailAdapter {
  const adapter = createHttpRailAdapter({
    baseUrl: url,
    connectTimeoutMs: 1_000,
    responseTimeoutMs: 2_000,
    ...options,
  });
  cleanups.push(() => adapter.close());
  return adapter;
}

function json(statusCode: number, body: unknown): Script {
  return (_request, response) => {
    response.writeHead(statusCode, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

const instruction: PayoutInstruction = {
  reference: 'ACK0000000000000001',
  mode: 'IMPS',
  amountPaise: 10150n,
  account: '123456789012',
  ifsc: 'HDFC0001234',
  beneficiaryName: 'Asha Rao',
};
const success = { reference: instruction.reference, status: 'SUCCESS', utr: '123456789012' };

describe('createHttpRailAdapter', () => {
  it('when an instruction is submitted, then the amount travels as a string of digits and ifsc only for IMPS', async () => {
    const rail = await scriptedRail(json(200, success));
    const adapter = adapterFor(rail.url);
    await adapter.submit(instruction);
    await adapter.submit({ ...instruction, amountPaise: 12345678901234567890n });
    await adapter.submit({ ...instruction, mode: 'UPI', account: 'asha@okbank', ifsc: undefined });

    expect(rail.requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill('POST /v1/payouts'));
    const [imps, huge, upi] = rail.requests.map((r) => r.body);
    expect(imps).toContain('"amount_paise":"10150"');
    expect(JSON.parse(imps!)).toEqual({
      reference: instruction.reference,
      mode: 'IMPS',
      amount_paise: '10150',
      account: '123456789012',
      ifsc: 'HDFC0001234',
      beneficiary_name: 'Asha Rao',
    });
    expect(huge).toContain('"amount_paise":"12345678901234567890"');
    expect(JSON.parse(upi!)).not.toHaveProperty('ifsc');
  });

  it('when the rail answers SUCCESS, FAILED or PENDING, then the adapter says so with the raw reply', async () => {
    const replies = [
      success,
      { reference: instruction.reference, status: 'FAILED', reason: 'INVALID_BENEFICIARY_ACCOUNT' },
      { reference: instruction.reference, status: 'PENDING' },
    ];
    const rail = await scriptedRail((request, response, body) => json(200, replies.shift())(request, response, body));
    const adapter = adapterFor(rail.url);
    expect(await adapter.submit(instruction)).toEqual({
      outcome: 'SUCCESS',
      bankReference: '123456789012',
      raw: success,
    });
    expect(await adapter.submit(instruction)).toMatchObject({
      outcome: 'FAILED',
      reason: 'INVALID_BENEFICIARY_ACCOUNT',
    });
    expect(await adapter.submit(instruction)).toMatchObject({ outcome: 'PENDING' });
  });

  it.each([400, 422])(
    'when the rail refuses a submit with %i, then it is REFUSED, not FAILED: a refusal proves nothing was paid only once the status API agrees',
    async (status) => {
      const rail = await scriptedRail(json(status, { error: 'DUPLICATE_REFERENCE' }));
      expect(await adapterFor(rail.url).submit(instruction)).toEqual({
        outcome: 'REFUSED',
        detail: `rail refused the submit with HTTP ${status}: {"error":"DUPLICATE_REFERENCE"}`,
        raw: { error: 'DUPLICATE_REFERENCE' },
      });
    },
  );

  it('when the status API says REVERSED with the UTR, then the adapter says REVERSED with that bank reference', async () => {
    const reply = { reference: instruction.reference, status: 'REVERSED', utr: '123456789012' };
    const rail = await scriptedRail(json(200, reply));
    expect(await adapterFor(rail.url).status(instruction.reference)).toEqual({
      outcome: 'REVERSED',
      bankReference: '123456789012',
      raw: reply,
    });
  });

  it.each([
    ['SUCCESS with an 80-character UTR', { status: 'SUCCESS', utr: '9'.repeat(80) }],
    ['SUCCESS with a UTR holding a NUL', { status: 'SUCCESS', utr: '1234\u00005678' }],
    ['SUCCESS with a UTR of punctuation', { status: 'SUCCESS', utr: '12-34 56' }],
    ['REVERSED without a UTR', { status: 'REVERSED' }],
  ])(
    'when the rail says %s, then it is UNKNOWN: no settlement on a reference we cannot record',
    async (_label, body) => {
      const rail = await scriptedRail(json(200, { reference: instruction.reference, ...body }));
      const answer = await adapterFor(rail.url).submit(instruction);
      expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/bank reference/) });
    },
  );

  it('when a reply carries NUL characters or broken Unicode, then what the adapter returns can be stored in PostgreSQL', async () => {
    const replies: [number, string][] = [
      // A raw NUL inside a JSON string: not JSON at all.
      [200, `{"reference":"${instruction.reference}","status":"SUCCESS","utr":"1234\u0000"}`],
      // JSON escapes that parse to a NUL and a lone surrogate, which jsonb refuses.
      [200, `{"reference":"${instruction.reference}","status":"FAILED","reason":"BAD\\u0000\\ud800"}`],
      [502, `<html>\u0000 502 bad gateway</html>`],
    ];
    const rail = await scriptedRail((request, response, body) => {
      const [status, text] = replies.shift()!;
      json(status, text)(request, response, body);
    });
    const adapter = adapterFor(rail.url);
    const answers = [
      await adapter.submit(instruction),
      await adapter.submit(instruction),
      await adapter.submit(instruction),
    ];
    expect(answers.map((a) => a.outcome)).toEqual(['UNKNOWN', 'FAILED', 'UNKNOWN']);
    expect(answers[1]).toMatchObject({ reason: 'RAIL_REJECTED', raw: { reason: 'BAD\uFFFD\uFFFD' } });
    for (const answer of answers) {
      const stored = JSON.stringify(answer);
      expect(stored).not.toMatch(/\\u0000|\\ud[89ab]/i);
      expect(stored).not.toContain('\u0000');
    }
  });

  it('when the rail answers 409, then it is UNKNOWN with a detail that asks for a person', async () => {
    const rail = await scriptedRail(json(409, { error: 'CONFLICT' }));
    const answer = await adapterFor(rail.url).submit(instruction);
    expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/409.*different.*a person/) });
  });

  it.each([
    ['HTTP 500', json(500, 'oops')],
    ['HTTP 502', json(502, '<html>bad gateway</html>')],
    ['HTTP 503', json(503, { error: 'UNAVAILABLE' })],
    ['HTTP 429', json(429, { error: 'SLOW_DOWN' })],
    ['a body that is not JSON', json(200, '{"reference": "ACK')],
    ['SUCCESS without a UTR', json(200, { reference: instruction.reference, status: 'SUCCESS' })],
    ['a reply about another reference', json(200, { ...success, reference: 'SOMEONEELSE' })],
    ['a status outside the contract', json(200, { reference: instruction.reference, status: 'MAYBE' })],
    ['a cut connection', ((request) => request.socket.destroy()) satisfies Script],
  ])('when the rail gives %s, then the submit is UNKNOWN, not an exception', async (_label, script) => {
    const rail = await scriptedRail(script);
    const answer = await adapterFor(rail.url).submit(instruction);
    expect(answer.outcome).toBe('UNKNOWN');
    expect(answer.outcome === 'UNKNOWN' && answer.detail.length).toBeGreaterThan(0);
  });

  it('when the rail gives an unlisted failure reason, then it is still a FAILED refusal, kept raw', async () => {
    const reply = { reference: instruction.reference, status: 'FAILED', reason: 'ACCOUNT_FROZEN' };
    const rail = await scriptedRail(json(200, reply));
    expect(await adapterFor(rail.url).submit(instruction)).toEqual({
      outcome: 'FAILED',
      reason: 'RAIL_REJECTED',
      raw: reply,
    });
  });

  it('when the rail never answers, then the call is UNKNOWN once the response time-out has passed', async () => {
    const rail = await scriptedRail(() => undefined);
    const startedAt = Date.now();
    const answer = await adapterFor(rail.url, { responseTimeoutMs: 200 }).submit(instruction);
    const elapsed = Date.now() - startedAt;
    expect(answer).toEqual({ outcome: 'UNKNOWN', detail: 'no reply from the rail within 200 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('when nothing listens at the rail address, then the call is UNKNOWN at once', async () => {
    const rail = await scriptedRail(json(200, success));
    await rail.close();
    const startedAt = Date.now();
    const answer = await adapterFor(rail.url, { connectTimeoutMs: 5_000, responseTimeoutMs: 10_000 }).submit(
      instruction,
    );
    expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/ECONNREFUSED/) });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });

  it('when status is asked, then the reference is escaped into the path and the reply read', async () => {
    const rail = await scriptedRail(json(200, { reference: 'A B/C', status: 'PENDING' }));
    expect(await adapterFor(`${rail.url}/bank/`).status('A B/C')).toMatchObject({ outcome: 'PENDING' });
    expect(rail.requests[0]).toMatchObject({ method: 'GET', path: '/bank/v1/payouts/A%20B%2FC' });
  });

  it("when status gets the rail's own 404, then NOT_FOUND; any other 404 is UNKNOWN", async () => {
    const rail = await scriptedRail((request, response, body) => {
      if (request.url?.endsWith('/KNOWN404'))
        json(404, { reference: 'KNOWN404', status: 'NOT_FOUND' })(request, response, body);
      else json(404, '<html>no such route</html>')(request, response, body);
    });
    const adapter = adapterFor(rail.url);
    expect(await adapter.status('KNOWN404')).toEqual({
      outcome: 'NOT_FOUND',
      raw: { reference: 'KNOWN404', status: 'NOT_FOUND' },
    });
    expect(await adapter.status('OTHER')).toMatchObject({
      outcome: 'UNKNOWN',
      detail: expect.stringMatching(/HTTP 404/),
    });
  });

  it('when calls follow one another, then they reuse keep-alive connections instead of opening one each', async () => {
    const rail = await scriptedRail(json(200, success));
    const adapter = adapterFor(rail.url);
    for (let i = 0; i < 20; i++) expect((await adapter.submit(instruction)).outcome).toBe('SUCCESS');
    expect(rail.requests).toHaveLength(20);
    // undici may open a second connection while the first is still finishing its reply, never more.
    expect(rail.connections).toBeLessThanOrEqual(2);
  });

  it('when more calls run at once than maxConnections allows, then the rest queue on the open connections', async () => {
    const rail = await scriptedRail((request, response, body) => {
      setTimeout(() => json(200, success)(request, response, body), 20);
    });
    const adapter = adapterFor(rail.url, { maxConnections: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => adapter.submit(instruction)));
    expect(answers.map((a) => a.outcome)).toEqual(Array(6).fill('SUCCESS'));
    expect(rail.connections).toBe(2);
  });

  it('when the adapter is closed, then later calls answer UNKNOWN instead of throwing', async () => {
    const rail = await scriptedRail(json(200, success));
    const adapter = adapterFor(rail.url);
    await adapter.close();
    await adapter.close();
    expect(await adapter.submit(instruction)).toMatchObject({ outcome: 'UNKNOWN' });
    expect(await adapter.status(instruction.reference)).toMatchObject({ outcome: 'UNKNOWN' });
    expect(rail.requests).toHaveLength(0);
  });
});

describe('beneficiary validation over HTTP', () => {
  it('when an account or a UPI address is asked about, then the question travels as JSON and the verdict comes back', async () => {
    const rail = await scriptedRail((request, response, body) => {
      const asked = JSON.parse(body) as Record<string, string>;
      const valid =
        request.url === '/v1/validations/upi' ? asked.upi === 'asha@okhdfc' : asked.account === '123456789012';
      json(200, valid ? { status: 'VALID', registered_name: 'ASHA KUMAR' } : { status: 'INVALID' })(
        request,
        response,
        body,
      );
    });
    const adapter = adapterFor(rail.url);

    expect(await adapter.validateAccount({ account: '123456789012', ifsc: 'HDFC0001234' })).toEqual({
      outcome: 'VALID',
      registeredName: 'ASHA KUMAR',
      raw: { status: 'VALID', registered_name: 'ASHA KUMAR' },
    });
    expect(await adapter.validateUpi('nobody@okhdfc')).toEqual({ outcome: 'INVALID', raw: { status: 'INVALID' } });
    expect(rail.requests).toEqual([
      { method: 'POST', path: '/v1/validations/account', body: '{"account":"123456789012","ifsc":"HDFC0001234"}' },
      { method: 'POST', path: '/v1/validations/upi', body: '{"upi":"nobody@okhdfc"}' },
    ]);
  });

  it.each([
    ['VALID without the registered name', json(200, { status: 'VALID' })],
    ['an unknown status', json(200, { status: 'PROBABLY' })],
    ['a body that is not JSON', json(200, '<html>')],
    ['a 502', json(502, { error: 'bad gateway' })],
    ['a 400', json(400, { error: 'BAD_REQUEST' })],
  ])('when the rail answers %s, then the verdict is UNKNOWN, never INVALID', async (_name, script) => {
    const rail = await scriptedRail(script);
    expect(await adapterFor(rail.url).validateUpi('asha@okhdfc')).toMatchObject({ outcome: 'UNKNOWN' });
  });

  it('when the rail never answers, then the validation is UNKNOWN once the response time-out has passed', async () => {
    const rail = await scriptedRail(() => undefined);
    const started = Date.now();
    const answer = await adapterFor(rail.url, { responseTimeoutMs: 200 }).validateAccount({
      account: '123456789012',
      ifsc: 'HDFC0001234',
    });
    expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/within 200 ms/) });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
