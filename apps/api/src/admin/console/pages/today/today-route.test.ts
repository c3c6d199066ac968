import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { queueDepths } from './queue-depths.js';
import { hoursOf } from './today-route.js';

describe('the window of the day page', () => {
  it('when no hours are given, then it is the last 24', () => {
    expect(hoursOf(undefined)).toBe(24);
  });

  it('when the hours are a whole number from 1 to 72, then they are the window', () => {
    expect(['1', '6', '72'].map(hoursOf)).toEqual([1, 6, 72]);
  });

  it('when the hours are anything else, then there is no window', () => {
    expect(['abc', '0', '73', '1.5', '', '-1', '006', ['6', '7']].map(hoursOf)).toEqual(Array(8).fill(undefined));
  });
});

describe('the queues part of the day page', () => {
  it('when Redis does not answer, then the queues are unavailable instead of the page failing', async () => {
    // Nothing listens on port 1: the queue keeps trying to connect, as it does while Redis is down.
    const away = new Queue('day-page-away', {
      connection: { host: '127.0.0.1', port: 1, maxRetriesPerRequest: null, retryStrategy: () => 200 },
    });
    away.on('error', () => {});
    try {
      expect(await queueDepths({ Payouts: away })).toEqual({ available: false, reason: 'no answer in 1500 ms' });
    } finally {
      await away.close();
    }
  });
});
