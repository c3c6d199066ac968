import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logMerchant, requestContext } from './request-context.js';

const lines: Record<string, unknown>[] = [];
let url: string;
let close: () => void;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestContext(pino({ level: 'warn' }, sink)));
  app.get('/quiet', (req, res) => {
    logMerchant(req, 'M-QUIET');
    res.status(200).end();
  });
  app.get('/warns', (req, res) => {
    req.log.warn('before the merchant is known');
    logMerchant(req, 'M-LOUD');
    req.log.warn('after');
    res.status(200).end();
  });
  app.get('/fails', (req, res) => {
    logMerchant(req, 'M-FAIL');
    res.status(503).end();
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const linesOf = (id: string | null) => lines.filter((l) => (l.req as { id?: string } | undefined)?.id === id);

describe('requestContext', () => {
  it('when a request logs nothing at or above the level, then no line is written for it', async () => {
    const answer = await fetch(`${url}/quiet`);
    expect(answer.status).toBe(200);
    expect(linesOf(answer.headers.get('x-request-id'))).toEqual([]);
  });

  it('when the logger is used before and after the merchant is known, then every line has the request and the later ones the MID', async () => {
    const answer = await fetch(`${url}/warns`);
    const [before, after] = linesOf(answer.headers.get('x-request-id'));
    expect(before).toMatchObject({ msg: 'before the merchant is known', req: { method: 'GET', path: '/warns' } });
    expect(before).not.toHaveProperty('mid');
    expect(after).toMatchObject({ msg: 'after', mid: 'M-LOUD', req: { method: 'GET', path: '/warns' } });
  });

  it('when a request ends in a 5xx, then its completion line is written at error with the MID bound before', async () => {
    const answer = await fetch(`${url}/fails`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(linesOf(answer.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ level: 50, msg: 'request errored', mid: 'M-FAIL', res: { statusCode: 503 } }),
    ]);
  });
});
