import type { ComponentChildren } from 'preact';
import { isAppError, type FieldError } from '@payout/domain';

// Pieces the dashboard's read pages share: reading a query the merchant API's own parser checks, the list of
// what was wrong with it, links that keep a query, and tables that scroll inside themselves on a phone.

/** What a query parser of packages/contract gave, or the fields it refused (its 422, shown on the page instead). */
export type ParsedQuery<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * Runs one of the merchant API's query parsers (parsePayoutListQuery, parseStatementQuery), so a page reads
 * its filters exactly as the API does (docs/api.md); a refusal comes back as the fields at fault.
 */
export function parseQuery<T>(parse: () => T): ParsedQuery<T> {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (isAppError(error) && error.code === 'VALIDATION_FAILED') {
      return { ok: false, errors: (error.details.errors as FieldError[] | undefined) ?? [] };
    }
    throw error;
  }
}

/** The fields a query was refused for, announced to screen readers. */
export function QueryErrors(props: { errors: readonly FieldError[] }) {
  return (
    <div class="error" role="alert">
      <p>Nothing is listed: these filters were refused.</p>
      <ul>
        {props.errors.map((e) => (
          <li>{e.message}</li>
        ))}
      </ul>
    </div>
  );
}

/** The query's text parameters as given, each once (a repeated parameter is the parser's to refuse). */
export function textParameters(query: Record<string, unknown>, names: readonly string[]): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of names) {
    const value = query[name];
    if (typeof value === 'string' && value !== '') given[name] = value;
  }
  return given;
}

/** `path` with these parameters, the empty ones left out. */
export function withQuery(path: string, parameters: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** A table that scrolls sideways inside itself, so a phone-sized page never does. */
export function WideTable(props: { caption: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        {props.children}
      </table>
    </div>
  );
}
