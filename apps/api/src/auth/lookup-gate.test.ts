import { describe, expect, it } from 'vitest';
import { LookupGate, type LookupLane } from './lookup-gate.js';

// A look-up that runs until the test ends it, so which look-ups are running at a moment can be read off.
function controlled(gate: LookupGate, lane: LookupLane, started: string[], name: string) {
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const done = gate.run(lane, async () => {
    started.push(name);
    await ended;
  });
  return { finish, done };
}

describe('LookupGate', () => {
  it('when known MIDs are refreshed together, then up to maxKnownInFlight run at once while never-seen MIDs stay at maxInFlight', async () => {
    const gate = new LookupGate(1, 10, undefined, 3);
    const started: string[] = [];
    const unknownA = controlled(gate, 'unknown', started, 'unknown-a');
    const unknownB = controlled(gate, 'unknown', started, 'unknown-b');
    const known = [1, 2, 3].map((i) => controlled(gate, 'known', started, `known-${i}`));
    await Promise.resolve();
    // One never-seen MID holds the only unknown slot; two known MIDs run beside it (3 in all).
    expect(started).toEqual(['unknown-a', 'known-1', 'known-2']);

    unknownA.finish();
    await unknownA.done;
    // The freed slot goes to the waiting known MID, not to the second never-seen one.
    expect(started).toEqual(['unknown-a', 'known-1', 'known-2', 'known-3']);

    for (const k of known) k.finish();
    await Promise.all(known.map((k) => k.done));
    expect(started.at(-1)).toBe('unknown-b');
    unknownB.finish();
    await unknownB.done;
  });
});
