import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './error-handler.js';
import { jsonBody } from './json-body.js';
import { requestContext } from './request-context.js';
import { sendJson } from './send-json.js';

let port: number;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(requestContext(pino({ level: 'silent' })));
  app.post('/echo', ...jsonBody, (req, res) => sendJson(res, 200, { body: req.body as Record<string, unknown> }));
  app.use(errorHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
  close = () => server.close();
});
afterAll(() => close());

/**
 * POSTs `body` with exactly `headers` (written on a socket, so nothing is added: no Content-Length, no
 * chunking) and answers the status.
 */
function post(headers: Record<string, string>, body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const head = Object.entries({ Host: 'localhost', Connection: 'close', ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const chunked = headers['Transfer-Encoding'] === 'chunked';
    const sent = chunked ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n` : body;
    socket.end(`POST /echo HTTP/1.1\r\n${head}\r\n${sent}`);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
  });
}

const json = '{"a":"1"}';
const length = String(Buffer.byteLength(json));

describe('jsonBody content types', () => {
  // Each is sent twice: the second answer comes from the remembered verdict for that header text.
  it.each([
    ['application/json', 200],
    ['application/json; charset=utf-8', 200],
    ['Application/JSON', 200],
    ['application/json-patch+json', 415],
    ['application/vnd.api+json', 415],
    ['text/plain', 415],
    ['application/x-www-form-urlencoded', 415],
    ['not a media type', 415],
  ])(
    'when the Content-Type is "%s", then the body is read as JSON or refused with 415, the same every time',
    async (type, status) => {
      expect(await post({ 'Content-Type': type, 'Content-Length': length }, json)).toBe(status);
      expect(await post({ 'Content-Type': type, 'Content-Length': length }, json)).toBe(status);
    },
  );

  it('when a JSON request has no body at all (neither a length nor chunks), then it is refused with 415 although the type was accepted before', async () => {
    expect(await post({ 'Content-Type': 'application/json', 'Content-Length': length }, json)).toBe(200);
    expect(await post({ 'Content-Type': 'application/json' })).toBe(415);
  });

  it('when a JSON body comes in chunks, then it is read', async () => {
    expect(await post({ 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, json)).toBe(200);
  });

  it('when there is no Content-Type, then 415', async () => {
    expect(await post({ 'Content-Length': length }, json)).toBe(415);
  });
});
