import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeCpu, runQueueNs, type CpuSplit } from '../../bench/cpu-meter.js';

describe('the run-queue time of an app’s main thread', () => {
  it('is the second field of schedstat, in nanoseconds', () => {
    expect(runQueueNs('5139206551 1873209114 61204\n')).toBe(1_873_209_114);
  });

  it('is absent when the line cannot be read', () => {
    expect(runQueueNs('')).toBeUndefined();
    expect(runQueueNs('5139206551')).toBeUndefined();
  });

  it('is read from this kernel for a running thread', () => {
    const text = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8');
    expect(runQueueNs(text)).toBeGreaterThanOrEqual(0);
  });
});

describe('describeCpu', () => {
  const split: CpuSplit = {
    wallS: 10,
    cores: 2,
    busy: 1.5,
    byUser: { api: 0.74, 'postgres (bench db)': 0.59 },
    otherCommands: {},
    waitedForCore: { api: 0.27, reference: 0 },
  };

  it('names the apps that waited for a core, and leaves out those that did not', () => {
    expect(describeCpu(split)).toBe(
      'cpu 1.50 of 2 cores busy: api 0.74 · postgres (bench db) 0.59; waiting for a core: api 0.27',
    );
  });

  it('says nothing of waiting when no app waited', () => {
    expect(describeCpu({ ...split, waitedForCore: {} })).toBe(
      'cpu 1.50 of 2 cores busy: api 0.74 · postgres (bench db) 0.59',
    );
  });
});
