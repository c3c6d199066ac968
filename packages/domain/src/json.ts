import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';

/**
 * A JSON number kept as the exact text it was written with: "12345678901234567890123" and "101.00"
 * survive untouched, where JSON.parse would round the first and JSON.stringify drop the zeros of the second.
 */
export { LosslessNumber as JsonNumber };

export function isJsonNumber(value: unknown): value is LosslessNumber {
  return isLosslessNumber(value);
}

/** Thrown for text that is not JSON (including duplicate keys with different values). */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/**
 * Parses JSON without ever turning a number into a float: every number becomes a {@link JsonNumber}.
 * Nesting is bounded so hostile input cannot exhaust the stack.
 */
export function parseJson(text: string, maxDepth = 32): unknown {
  const { deepest, hasArray } = shape(text);
  if (deepest > maxDepth) throw new JsonSyntaxError(`JSON nested deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = parse(text, null, (digits) => new LosslessNumber(digits));
  } catch (error) {
    throw new JsonSyntaxError(error instanceof Error ? error.message : String(error));
  }
  // lossless-json takes an array and an object with the same members (`[]` and `{}`) for one value, so a key
  // repeated with those two passes its duplicate check. Only a text holding an array can do that: a payout's
  // flat body never pays for the second look.
  if (hasArray) new RepeatedKeys(text).check();
  return value;
}

/**
 * A second look at a valid JSON text for a key repeated in one object with different values, comparing
 * each value's kind (object, array, other) as well as its members.
 */
class RepeatedKeys {
  private i = 0;
  constructor(private readonly text: string) {}

  check(): void {
    this.value();
  }

  private blanks(): void {
    while (/\s/.test(this.text[this.i] ?? '')) this.i++;
  }

  /** Skips one value and returns its canonical form (its kind, then its parsed members written again). */
  private value(): string {
    this.blanks();
    const start = this.i;
    const c = this.text[this.i];
    if (c === '{') this.object();
    else if (c === '[') this.array();
    else if (c === '"') this.string();
    else while (this.i < this.text.length && !/[\s,\]}]/.test(this.text[this.i]!)) this.i++;
    const literal = this.text.slice(start, this.i);
    return `${c === '[' ? 'array' : c === '{' ? 'object' : 'scalar'}:${stringify(parse(literal, null, (d) => new LosslessNumber(d)))}`;
  }

  private string(): string {
    const start = this.i++;
    while (this.text[this.i] !== '"') this.i += this.text[this.i] === '\\' ? 2 : 1;
    this.i++;
    return JSON.parse(this.text.slice(start, this.i)) as string;
  }

  private object(): void {
    const seen = new Map<string, string>();
    this.i++;
    this.blanks();
    while (this.text[this.i] !== '}') {
      this.blanks();
      const key = this.string();
      this.blanks();
      this.i++; // the colon
      const value = this.value();
      const before = seen.get(key);
      if (before !== undefined && before !== value)
        throw new JsonSyntaxError(`Duplicate key '${key}' with another value`);
      seen.set(key, value);
      this.blanks();
      if (this.text[this.i] === ',') this.i++;
      this.blanks();
    }
    this.i++;
  }

  private array(): void {
    this.i++;
    this.blanks();
    while (this.text[this.i] !== ']') {
      this.value();
      this.blanks();
      if (this.text[this.i] === ',') this.i++;
      this.blanks();
    }
    this.i++;
  }
}

/**
 * Writes JSON. {@link JsonNumber} values are written as their literal text (so `jsonNumber("101.00")`
 * appears as 101.00), bigints as their digits; everything else as JSON.stringify would.
 */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

/** A JSON number literal to write exactly as given, e.g. jsonNumber("101.00"). */
export function jsonNumber(literal: string): LosslessNumber {
  return new LosslessNumber(literal);
}

// Counts bracket depth outside strings, and sees whether an array opens. Cheap (one pass, no allocation)
// and run before the recursive parser.
function shape(text: string): { deepest: number; hasArray: boolean } {
  let depth = 0;
  let deepest = 0;
  let hasArray = false;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      deepest = Math.max(deepest, ++depth);
      if (c === 0x5b) hasArray = true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { deepest, hasArray };
}
