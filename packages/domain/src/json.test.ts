import { describe, expect, it } from 'vitest';
import { isJsonNumber, JsonSyntaxError, jsonNumber, parseJson, stringifyJson } from './json.js';

describe('parseJson', () => {
  it('when a 23-digit number is parsed and written back, then every digit survives', () => {
    const text = '{"TransactionID":12345678901234567890123}';
    const parsed = parseJson(text) as { TransactionID: unknown };
    expect(isJsonNumber(parsed.TransactionID)).toBe(true);
    expect(String(parsed.TransactionID)).toBe('12345678901234567890123');
    expect(stringifyJson(parsed)).toBe(text);
  });

  it('when a decimal is parsed, then its text is kept exactly (no float artefacts)', () => {
    const parsed = parseJson('{"Amount":0.10,"b":101.50}') as Record<string, unknown>;
    expect(String(parsed.Amount)).toBe('0.10');
    expect(String(parsed.b)).toBe('101.50');
  });

  it('when strings hold digits, then they stay strings', () => {
    expect(parseJson('{"a":"0012"}')).toEqual({ a: '0012' });
  });

  it.each([
    ['not JSON', 'hello'],
    ['a trailing comma', '{"a":1,}'],
    ['single quotes', "{'a':1}"],
    ['an unterminated string', '{"a":"'],
    ['duplicate keys with different values', '{"a":1,"a":2}'],
    ['a key repeated with an empty array and an empty object', '{"Name":[],"Name":{}}'],
    ['a key repeated with an array and an object of the same members', '{"a":[1],"a":{"0":1}}'],
    ['a key repeated so inside an array', '{"items":[{"k":[ ],"k":{ }}]}'],
    ['NaN', '{"a":NaN}'],
    ['a leading zero', '{"a":012}'],
  ])('when given %s, then it throws JsonSyntaxError', (_label, text) => {
    expect(() => parseJson(text)).toThrow(JsonSyntaxError);
  });

  it('when a key is repeated with the same value, however it is written, then it parses', () => {
    expect(parseJson('{"a":[],"a":[ ],"b":{"c":"x"},"b":{ "c" : "x" },"\\u0064":1,"d":1}')).toEqual({
      a: [],
      b: { c: 'x' },
      d: expect.anything(),
    });
    expect(parseJson('{"items":[{"a":"[\\"]"}],"x":"]"}')).toEqual({ items: [{ a: '["]' }], x: ']' });
  });

  it('when nesting is deeper than allowed, then it throws before recursing', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(() => parseJson(deep)).toThrow(/nested deeper/);
  });

  it('when brackets appear inside strings, then they do not count as nesting', () => {
    const text = JSON.stringify({ note: '['.repeat(100) });
    expect(parseJson(text)).toEqual({ note: '['.repeat(100) });
  });
});

describe('stringifyJson', () => {
  it('when given jsonNumber("101.00"), then it writes the literal 101.00', () => {
    expect(stringifyJson({ Amount: jsonNumber('101.00') })).toBe('{"Amount":101.00}');
  });

  it('when given a bigint, then it writes its digits', () => {
    expect(stringifyJson({ n: 12345678901234567890123n })).toBe('{"n":12345678901234567890123}');
  });

  it('when given something that is not a number literal, then jsonNumber refuses it', () => {
    expect(() => jsonNumber('1,00')).toThrow();
    expect(() => jsonNumber('"1"')).toThrow();
  });
});
