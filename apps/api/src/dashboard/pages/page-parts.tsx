import type { Response } from 'express';
import type { ComponentChildren, VNode } from 'preact';
import { isAppError, type FieldError } from '@payout/domain';
import { renderDashboardPage } from '../dashboard-layout.js';

// Pieces the dashboard's read pages share: reading a query the merchant API's own parser checks, the list of
// what was wrong with it, links that keep a query, and tables that scroll inside themselves on a phone.

/**
 * Runs one of the merchant API's query parsers (parsePayoutListQuery, parseStatementQuery), so a page reads
 * its filters exactly as the API does (docs/api.md). Where the API answers 422, the page is `refused` with
 * the fields at fault, sent with 422, and this gives undefined.
 */
export function parsedOrRefused<T>(
  res: Response,
  parse: () => T,
  refused: (errors: readonly FieldError[]) => VNode,
): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!isAppError(error) || error.code !== 'VALIDATION_FAILED') throw error;
    renderDashboardPage(res, 422, refused((error.details.errors as FieldError[] | undefined) ?? []));
    return undefined;
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

/** The link to the page after this one: `path` with the parameters `kept` as given, and the next cursor. */
export function nextPageHref(
  path: string,
  query: Record<string, unknown>,
  kept: readonly string[],
  cursor: string | null,
): string | undefined {
  return cursor === null ? undefined : withQuery(path, { ...textParameters(query, kept), cursor });
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
