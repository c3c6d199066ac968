import type { ComponentChildren } from 'preact';
import { may, type ConsolePermission } from '@payout/domain';
import type { Viewer } from '../console-session.js';
import { CSRF_FIELD } from '../console-session.js';

/** The console's navigation: every list a support agent starts from. */
const CONSOLE_NAV: readonly (readonly [href: string, label: string])[] = [
  ['/console', 'Search'],
  ['/console/today', 'Today'],
  ['/console/lists/manual-review', 'Manual review'],
  ['/console/lists/pending?minutes=30', 'Pending'],
  ['/console/lists/queued', 'Queued'],
  ['/console/lists/failed-webhooks', 'Failed webhooks'],
  ['/console/lists/discrepancies', 'Discrepancies'],
  ['/console/lists/statement-breaks', 'Statement breaks'],
  ['/console/approvals', 'Approvals'],
  ['/console/audit', 'Audit log'],
  ['/console/keys', 'My keys'],
  ['/admin/queues', 'Queues'],
];

/** Every console page: a title, landmarks (banner, navigation, main, contentinfo) and a skip link. */
export function Page(props: { title: string; viewer?: Viewer | undefined; children: ComponentChildren }) {
  const { viewer } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Payout console`}</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="banner">
          <a class="brand" href="/console">
            Payout console
          </a>
          {viewer && (
            <nav aria-label="Console">
              <ul>
                {CONSOLE_NAV.map(([href, label]) => (
                  <li>
                    <a href={href}>{label}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {viewer && (
            <form class="who" method="post" action="/console/logout">
              <span>
                {viewer.user.username} ({viewer.user.role.toLowerCase()})
              </span>
              <input type="hidden" name={CSRF_FIELD} value={viewer.csrfToken} />
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          )}
        </header>
        {viewer?.inSetup && (
          <p class="setup-banner" role="status">
            This installation is in setup: fewer than two approvers have enrolled. Approvers add people alone (each
            change is in the audit log as setup), and no money request can be approved until a second approver has
            enrolled.
          </p>
        )}
        <main id="main" tabIndex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <footer>
          <p>Times are India Standard Time. Every action is written to the audit log.</p>
        </footer>
      </body>
    </html>
  );
}

/** A part of a page under its own heading, which names the part for screen readers. */
export function Section(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** The hidden CSRF field every signed-in form carries. */
export function Csrf(props: { viewer: Viewer }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.viewer.csrfToken} />;
}

/** A status as a labelled badge (colour is never the only signal: the word is always there). */
export function StatusBadge(props: { status: string }) {
  return <span class={`badge badge-${props.status.toLowerCase()}`}>{props.status}</span>;
}

/** A table of any rows: each column a header and how to show a row's cell. The console's every list. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** Right-align (amounts). */
  numeric?: boolean;
}

export function RowsTable<Row>(props: { caption: string; columns: Column<Row>[]; rows: Row[]; empty: string }) {
  if (props.rows.length === 0) return <p class="empty">{props.empty}</p>;
  return (
    <div class="table-wrap" role="region" aria-label={props.caption} tabIndex={0}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col" class={c.numeric ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>
              {props.columns.map((c) => (
                <td class={c.numeric ? 'num' : undefined}>{c.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface ListPageProps<Row> {
  title: string;
  viewer: Viewer;
  intro?: ComponentChildren;
  filters?: ComponentChildren;
  columns: Column<Row>[];
  rows: Row[];
  empty: string;
  /** Under the table: links to the other pages of a paged list. */
  pages?: ComponentChildren;
}

/**
 * A page of rows with optional filters above it and, for a list too long to load whole, links to its other
 * pages: every list of the console is one, so a new list is one route and one query (docs/operations.md, "Find").
 */
export function ListPage<Row>(props: ListPageProps<Row>) {
  return (
    <Page title={props.title} viewer={props.viewer}>
      {props.intro}
      {props.filters}
      <RowsTable caption={props.title} columns={props.columns} rows={props.rows} empty={props.empty} />
      {props.pages}
    </Page>
  );
}

/**
 * A button for an operator action. Support sees it disabled, with the reason next to it (and tied to it
 * for screen readers); operators go to the action's confirmation page.
 */
export function ActionButton(props: {
  viewer: Viewer;
  href: string;
  label: string;
  unavailable?: string | undefined;
  /** What the action needs of the viewer's role: acting alone, or requesting a money action. */
  needs?: ConsolePermission;
}) {
  const reason = !may(props.viewer.user.role, props.needs ?? 'act')
    ? `Your role (${props.viewer.user.role.toLowerCase()}) may not do this.`
    : props.unavailable;
  const id = `why-${props.href.replace(/[^a-z0-9]+/gi, '-')}`;
  return (
    <form method="get" action={props.href} class="action">
      <button type="submit" disabled={reason !== undefined} aria-describedby={reason ? id : undefined}>
        {props.label}
      </button>
      {reason && (
        <span class="why" id={id}>
          {reason}
        </span>
      )}
    </form>
  );
}

/** A short message page: not found, refused, done. */
export function MessagePage(props: { title: string; viewer?: Viewer | undefined; children: ComponentChildren }) {
  return (
    <Page title={props.title} viewer={props.viewer}>
      <div class="message">{props.children}</div>
      <p>
        <a href="/console">Back to search</a>
      </p>
    </Page>
  );
}
