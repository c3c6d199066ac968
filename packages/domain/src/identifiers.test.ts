import { describe, expect, it } from 'vitest';
import { ACK_NO_PATTERN, isMid, isTransactionId, newAckNo } from './identifiers.js';

describe('isTransactionId', () => {
  it.each(['1', '0', '00123', '12345678901234567890123', '1'.repeat(30)])('when %s, then it is accepted', (id) => {
    expect(isTransactionId(id)).toBe(true);
  });

  it.each(['', '1'.repeat(31), '12a', '-1', '1.0', '1e5', ' 1', '١٢٣'])('when %j, then it is refused', (id) => {
    expect(isTransactionId(id)).toBe(false);
  });
});

describe('isMid', () => {
  it.each(['M1', 'acme_01', 'A-B', 'x'.repeat(64)])('when %s, then it is well formed', (mid) => {
    expect(isMid(mid)).toBe(true);
  });

  it.each(['', 'x'.repeat(65), 'a b', 'a.b', "a'b", 'é'])('when %j, then it is not', (mid) => {
    expect(isMid(mid)).toBe(false);
  });
});

describe('newAckNo', () => {
  it('when generated, then it is 20 upper-case letters and digits', () => {
    const ack = newAckNo();
    expect(ack).toMatch(ACK_NO_PATTERN);
    expect(ack).toHaveLength(20);
  });

  it('when many are generated in the same millisecond, then they are all different', () => {
    const now = Date.now();
    const acks = new Set(Array.from({ length: 10_000 }, () => newAckNo(now)));
    expect(acks.size).toBe(10_000);
  });

  it('when generated later, then it sorts after an earlier one', () => {
    expect(newAckNo(1_000_000) < newAckNo(2_000_000)).toBe(true);
  });
});

describe('newAckNo from the pooled random bytes', () => {
  it('when more are generated than one pool refill holds, then every one is well formed and none repeats', () => {
    const now = 1_800_000_000_000;
    const acks = Array.from({ length: 5_000 }, () => newAckNo(now));
    expect(acks.every((ack) => ACK_NO_PATTERN.test(ack) && ack.length === 20)).toBe(true);
    expect(new Set(acks).size).toBe(acks.length);
    // The random half varies in every position, so the bits reach all ten characters.
    for (let position = 10; position < 20; position++) {
      expect(new Set(acks.map((ack) => ack[position])).size).toBeGreaterThan(16);
    }
  });

  it('when given a time, then the first ten characters are that time in base 32', () => {
    expect(newAckNo(0).slice(0, 10)).toBe('0000000000');
    expect(newAckNo(32 ** 9).slice(0, 10)).toBe('1000000000');
    expect(newAckNo(1_800_000_000_000).slice(0, 10)).toBe('01MCC5RM00');
  });
});
