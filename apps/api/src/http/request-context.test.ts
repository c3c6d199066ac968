import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '@payout/telemetry';
import { logMerchant, requestContext, requestLines } from './request-context.js';

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
  app.get('/lines', (req, res) => {
    const log = requestLines(req);
    log.info({ step: 1 }, 'below the level');
    logMerchant(req, 'M-LINES');
    log.warn({ step: 2 }, 'at the level');
    log.warn('a message alone');
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

  it('when a request’s lines are handed over, then only those at the level are written, each with the request and the MID bound before', async () => {
    const answer = await fetch(`${url}/lines`);
    const written = linesOf(answer.headers.get('x-request-id'));
    expect(written.map((l) => l.msg)).toEqual(['at the level', 'a message alone']);
    expect(written[0]).toMatchObject({ step: 2, mid: 'M-LINES', req: { method: 'GET', path: '/lines' } });
    expect(written[1]).toMatchObject({ mid: 'M-LINES', req: { path: '/lines' } });
    expect(written[1]).not.toHaveProperty('step');
  });

  it('when a request ends in a 5xx, then its completion line is written at error with the MID bound before', async () => {
    const answer = await fetch(`${url}/fails`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(linesOf(answer.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ level: 50, msg: 'request errored', mid: 'M-FAIL', res: { statusCode: 503 } }),
    ]);
  });
});

describe('requestContext at info, with the apps’ redaction', () => {
  const written: Record<string, unknown>[] = [];
  let infoUrl: string;
  let closeInfo: () => void;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const app = express();
    app.use(requestContext(pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink)));
    app.get('/api/check_payout_status', (req, res) => {
      req.log.info({ token: 'pgt_should_be_redacted' }, 'looked up');
      logMerchant(req, 'M-INFO');
      res.status(200).end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    infoUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeInfo = () => server.close();
  });
  afterAll(() => closeInfo());

  it('when a request completes, then its access line has the id, the path, a digits TransactionID, the MID bound late, the status and the time, and the request’s own lines stay redacted', async () => {
    const answer = await fetch(`${infoUrl}/api/check_payout_status?TransactionID=42&token=pgt_in_query`);
    await new Promise((resolve) => setImmediate(resolve));
    const id = answer.headers.get('x-request-id');
    const ofRequest = written.filter((l) => (l.req as { id?: string } | undefined)?.id === id);
    expect(ofRequest.map((l) => l.msg)).toEqual(['looked up', 'request completed']);
    expect(ofRequest[0]).toMatchObject({ token: '[redacted]' });
    expect(ofRequest[1]).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: expect.any(Number),
      hostname: expect.any(String),
      req: { id, method: 'GET', path: '/api/check_payout_status', transactionId: '42' },
      mid: 'M-INFO',
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(JSON.stringify(written)).not.toContain('pgt_');
  });
});
