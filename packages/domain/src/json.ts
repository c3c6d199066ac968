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
  if (nestingDepth(text) > maxDepth) throw new JsonSyntaxError(`JSON nested deeper than ${maxDepth} levels`);
  try {
    return parse(text, null, (digits) => new LosslessNumber(digits));
  } catch (error) {
    throw new JsonSyntaxError(error instanceof Error ? error.message : String(error));
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

// Counts bracket depth outside strings. Cheap (one pass, no allocation) and run before the recursive parser.
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}
