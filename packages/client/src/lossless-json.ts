/** A JSON value as this client hands it out: numbers that a JS number would alter are strings (see below). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [member: string]: JsonValue };
export type JsonObject = { [member: string]: JsonValue };

/**
 * Members whose numbers are identifiers or money: always handed out as the exact text of the literal
 * ("12345678901234567890123", "101.00"), whether the gateway wrote them as JSON numbers or strings.
 */
const EXACT_MEMBERS: ReadonlySet<string> = new Set([
  'TransactionID',
  'Amount',
  'Account',
  'Mobile',
  'mainwallet',
  'BatchID',
  'Ack_no',
  'Bankriff',
]);

/** Thrown for text that is not JSON. */
export class JsonParseError extends Error {
  override readonly name = 'JsonParseError';
}

const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const SAFE_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/; // at most 15 digits: always below 2^53

/**
 * Parses JSON without ever passing an identifier or an amount through a float. JSON.parse turns the UPI
 * result's `"TransactionID":12345678901234567890123` into 12345678901234567000000 and `"Amount":101.00`
 * into 101; here the members in EXACT_MEMBERS keep the literal's text as a string, any other number becomes
 * a JS number only when it is an integer a JS number holds exactly, and stays its text otherwise.
 */
export function parseJsonLossless(text: string): JsonValue {
  const parser = new Parser(text);
  const value = parser.value(undefined, 0);
  parser.end();
  return value;
}

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  value(member: string | undefined, depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`);
    this.skipSpace();
    const c = this.text[this.at];
    switch (c) {
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        return this.number(member);
    }
  }

  end(): void {
    this.skipSpace();
    if (this.at !== this.text.length) this.fail('unexpected text after the value');
  }

  private object(depth: number): JsonObject {
    this.at++; // {
    const result: JsonObject = {};
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return result;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') this.fail('expected a member name');
      const name = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail('expected ":"');
      this.at++;
      const value = this.value(name, depth + 1);
      // A member named __proto__ is data, never a way to change what the object inherits.
      Object.defineProperty(result, name, { value, enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === '}') return result;
      if (next !== ',') this.fail('expected "," or "}"');
    }
  }

  private array(depth: number): JsonValue[] {
    this.at++; // [
    const result: JsonValue[] = [];
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value(undefined, depth + 1));
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === ']') return result;
      if (next !== ',') this.fail('expected "," or "]"');
    }
  }

  private string(): string {
    const start = this.at;
    this.at++; // opening quote
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (Number.isNaN(c)) this.fail('unterminated string');
      if (c === 0x5c) this.at += 2;
      else if (c === 0x22) break;
      else this.at++;
    }
    this.at++; // closing quote
    // The string's own escapes (\n, \u00e9, …) are JSON.parse's job, which is exact for strings.
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string;
    } catch {
      return this.fail('malformed string');
    }
  }

  private number(member: string | undefined): string | number {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) return this.fail('unexpected character');
    this.at += match[0].length;
    const literal = match[0];
    if (member !== undefined && EXACT_MEMBERS.has(member)) return literal;
    return SAFE_INTEGER.test(literal) ? Number(literal) : literal;
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) this.fail('unexpected character');
    this.at += word.length;
    return value;
  }

  private skipSpace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++;
      else return;
    }
  }

  private fail(reason: string): never {
    throw new JsonParseError(`not JSON: ${reason} at position ${this.at}`);
  }
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
