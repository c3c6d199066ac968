import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../test/properties/property-replay.js';
import { isJsonNumber, JsonSyntaxError, parseJson, stringifyJson } from './json.js';

// JSON documents are generated as text, written compactly the way the lossless writer writes them, so a
// parse → stringify round trip must give back the very same characters: every number digit for digit
// (23-digit integers, "101.00", "-0", "1E+400"), every string escape, every member in order.

const digits = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...Array.from('0123456789')), { minLength, maxLength }).map((d) => d.join(''));

/** Any JSON number literal: integers far past 2^53, decimals with trailing zeros, exponents. */
const numberLiteral = fc
  .record({
    sign: fc.constantFrom('', '-'),
    integer: fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.constantFrom(...Array.from('123456789')), digits(0, 60)).map(([first, rest]) => first + rest),
    ),
    fraction: fc.oneof(
      fc.constant(''),
      digits(1, 30).map((d) => `.${d}`),
    ),
    exponent: fc.oneof(
      fc.constant(''),
      fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4)).map((p) => p.join('')),
    ),
  })
  .map(({ sign, integer, fraction, exponent }) => `${sign}${integer}${fraction}${exponent}`);

/** Any string, including controls, NUL, lone surrogates, right-to-left text and emoji. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({
    unit: fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\u05d0', '😀', '"', '\\', '/', '\n'),
    maxLength: 10,
  }),
);
const stringLiteral = anyString.map((s) => JSON.stringify(s));

// Keys include the ones that reach into an object's prototype when a parser is careless.
const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', ''), anyString);

/** A JSON document as compact text, at most `maxDepth` levels deep. */
const jsonText = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false'),
    numberLiteral,
    stringLiteral,
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      .uniqueArray(fc.tuple(key, tie('value')), { selector: ([k]) => k, maxLength: 5 })
      .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** The same document with random blanks between tokens (outside strings). */
function withBlanks(text: string, blanks: string[]): string {
  let out = '';
  let inString = false;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i]!;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if ('{}[],:'.includes(c)) out += blanks[n++ % blanks.length]! + c + blanks[n++ % blanks.length]!;
    else out += c;
  }
  return out;
}

/** Every number literal in a document, in order, as written (strings skipped). */
function numbersIn(text: string): string[] {
  const withoutStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return withoutStrings.match(/-?[0-9][0-9.eE+-]*/g) ?? [];
}

function numbersOf(value: unknown, found: string[] = []): string[] {
  if (isJsonNumber(value)) found.push(value.toString());
  else if (Array.isArray(value)) for (const item of value) numbersOf(item, found);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) numbersOf(v, found);
  return found;
}

describe('lossless JSON: properties', () => {
  it('when any JSON document is parsed and written back, then the text is identical, digit for digit', () => {
    assertProperty(
      fc.property(jsonText, (text) => {
        expect(stringifyJson(parseJson(text))).toBe(text);
      }),
      1000,
      import.meta.url,
    );
  });

  it('when any JSON document is parsed, then every number is kept as its exact literal, never a float', () => {
    assertProperty(
      fc.property(jsonText, (text) => {
        expect(numbersOf(parseJson(text))).toEqual(numbersIn(text));
      }),
      500,
      import.meta.url,
    );
  });

  it('when a document has blanks between its tokens, then it is written back compact and otherwise unchanged', () => {
    assertProperty(
      fc.property(
        jsonText,
        fc.array(fc.constantFrom('', ' ', '\n', '\t', '\r\n  '), { minLength: 1 }),
        (text, blanks) => {
          expect(stringifyJson(parseJson(withBlanks(text, blanks)))).toBe(text);
        },
      ),
      500,
      import.meta.url,
    );
  });

  it('when a member named __proto__ or constructor is parsed, then it is an ordinary member and no prototype changes', () => {
    assertProperty(
      fc.property(fc.constantFrom('__proto__', 'constructor'), jsonText, (name, inner) => {
        const parsed = parseJson(`{${JSON.stringify(name)}:{"polluted":${inner}}}`) as Record<string, unknown>;
        expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
        expect(Object.keys(parsed)).toEqual([name]);
        expect(Object.hasOwn(parsed, name)).toBe(true);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      200,
      import.meta.url,
    );
  });

  it('when a member appears twice with different values, then the document is refused; with the same value, it is kept once', () => {
    const leaf = fc.oneof(fc.constantFrom('null', 'true', 'false'), numberLiteral, stringLiteral);
    assertProperty(
      fc.property(key, leaf, leaf, (name, first, second) => {
        const text = `{${JSON.stringify(name)}:${first},${JSON.stringify(name)}:${second}}`;
        if (first === second) expect(stringifyJson(parseJson(text))).toBe(`{${JSON.stringify(name)}:${first}}`);
        else expect(() => parseJson(text)).toThrow(JsonSyntaxError);
      }),
      500,
      import.meta.url,
    );
  });

  it('when a document is nested d levels deep, then it is parsed up to 32 levels and refused beyond, never overflowing the stack', () => {
    assertProperty(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.constantFrom('[', '{"a":'), (depth, open) => {
        const close = open === '[' ? ']' : '}';
        const text = open.repeat(depth) + '0' + close.repeat(depth);
        if (depth <= 32) expect(stringifyJson(parseJson(text))).toBe(text);
        else expect(() => parseJson(text)).toThrow(JsonSyntaxError);
      }),
      300,
      import.meta.url,
    );
  });

  it('when any text at all is parsed, then it either parses or fails with JsonSyntaxError, nothing else', () => {
    const tokenSoup = fc
      .array(
        fc.constantFrom(
          '{',
          '}',
          '[',
          ']',
          ',',
          ':',
          '"',
          '\\',
          '"a"',
          '1',
          '-',
          '.',
          'e',
          'null',
          'tru',
          ' ',
          '\u0000',
          '\ud800',
        ),
        {
          maxLength: 40,
        },
      )
      .map((t) => t.join(''));
    assertProperty(
      fc.property(fc.oneof(tokenSoup, fc.string({ unit: 'binary', maxLength: 60 })), (text) => {
        try {
          parseJson(text);
        } catch (error) {
          expect(error).toBeInstanceOf(JsonSyntaxError);
        }
      }),
      2000,
      import.meta.url,
    );
  });
});
