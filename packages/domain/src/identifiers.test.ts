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
