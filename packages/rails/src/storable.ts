/**
 * A rail's reply made safe to store in PostgreSQL as it is: text cannot hold a NUL character and jsonb
 * refuses `\u0000` and lone surrogates, so a reply carrying one (a garbled bank reply does) would make the
 * statement that records it fail — again on every retry. Each is replaced by U+FFFD, visibly.
 */
export function storable<T>(value: T): T {
  return scrub(value) as T;
}

function scrub(value: unknown): unknown {
  if (typeof value === 'string') return value.toWellFormed().replaceAll('\u0000', '\uFFFD');
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [scrub(key) as string, scrub(inner)]));
  }
  return value;
}
