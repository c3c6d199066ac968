import { describe, expect, it } from 'vitest';
import { settlesWithin } from './queue-worker.js';

describe('settlesWithin (a stop that cannot hang)', () => {
  it('when the promise settles in time, then true', async () => {
    expect(await settlesWithin(Promise.resolve('closed'), 1_000)).toBe(true);
  });

  it('when the promise never settles, then false once the deadline passes', async () => {
    expect(await settlesWithin(new Promise(() => undefined), 20)).toBe(false);
  });

  it('when the promise rejects in time, then the rejection is passed on', async () => {
    await expect(settlesWithin(Promise.reject(new Error('connection reset')), 1_000)).rejects.toThrow(
      'connection reset',
    );
  });

  it('when the promise rejects after the deadline, then nothing is left unhandled', async () => {
    let rejectLate!: (error: Error) => void;
    const late = new Promise((_resolve, reject) => (rejectLate = reject));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(await settlesWithin(late, 10)).toBe(false);
      rejectLate(new Error('closed too late'));
      // Unhandled rejections are reported after the microtask queue drains: wait one macrotask turn.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
