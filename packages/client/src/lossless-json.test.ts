import { describe, expect, it } from 'vitest';
import { JsonParseError, parseJsonLossless } from './lossless-json.js';

describe('parseJsonLossless', () => {
  it('when a UPI result carries a 23-digit TransactionID and Amount 101.00 as numbers, then both keep their exact text', () => {
    const parsed = parseJsonLossless(
      '{"status":"PENDING","Amount":101.00,"TransactionID":12345678901234567890123,"status_code":202}',
    );
    expect(parsed).toEqual({
      status: 'PENDING',
      Amount: '101.00',
      TransactionID: '12345678901234567890123',
      status_code: 202,
    });
    // What JSON.parse would have handed out instead.
    expect(String((JSON.parse('{"t":12345678901234567890123}') as { t: number }).t)).not.toBe(
      '12345678901234567890123',
    );
  });

  it('when another member holds a number a JS number cannot keep exactly, then it stays text; small integers become numbers', () => {
    expect(parseJsonLossless('{"big":98765432109876543210,"ratio":0.1,"count":42,"neg":-7,"list":[1,2.50]}')).toEqual({
      big: '98765432109876543210',
      ratio: '0.1',
      count: 42,
      neg: -7,
      list: [1, '2.50'],
    });
  });

  it('when strings carry escapes, nesting and literals, then they parse as JSON.parse parses them', () => {
    const text = '{"a":"line\\nbreak \\u00e9 \\"q\\"","b":[true,false,null,{}],"c":{"d":[]}}';
    expect(parseJsonLossless(text)).toEqual(JSON.parse(text));
  });

  it('when a member is named __proto__, then it is data and the object inherits nothing from it', () => {
    const parsed = parseJsonLossless('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it.each(['', '{', '{"a":}', '{"a":1,}', '[1 2]', '{"a":01}', '"unterminated', '{"a":1} x', 'NaN', '<html>'])(
    'when the text is not JSON (%j), then JsonParseError',
    (text) => {
      expect(() => parseJsonLossless(text)).toThrow(JsonParseError);
    },
  );

  it('when nesting is hostile, then JsonParseError rather than a stack overflow', () => {
    expect(() => parseJsonLossless('['.repeat(10_000) + ']'.repeat(10_000))).toThrow(/nested deeper/);
  });
});
