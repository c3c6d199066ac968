import type { Response } from 'express';
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { merchantMay, type MerchantPermission } from '@payout/domain';
import { DASHBOARD_CSRF_FIELD, type DashboardViewer } from './dashboard-session.js';

/** The dashboard's navigation: each entry shown to the roles that may use it. */
export const DASHBOARD_NAV: readonly (readonly [href: string, label: string, permission: MerchantPermission])[] = [
  ['/dashboard', 'Payouts', 'read'],
  ['/dashboard/wallet', 'Wallet', 'read'],
  ['/dashboard/bulk', 'Bulk upload', 'pay'],
  ['/dashboard/downtimes', 'Downtimes', 'read'],
  ['/dashboard/webhook', 'Webhook', 'read'],
  ['/dashboard/tokens', 'API tokens', 'read'],
  ['/dashboard/allowlist', 'IP allow-list', 'read'],
  ['/dashboard/team', 'Team', 'read'],
  ['/dashboard/audit', 'Audit', 'team'],
];

/**
 * Sends a dashboard page: rendered on the server (preact-render-to-string escapes every value), never cached,
 * since each shows one merchant's live money.
 */
export function renderDashboardPage(res: Response, status: number, page: VNode): void {
  res
    .status(status)
    .type('html')
    .setHeader('Cache-Control', 'no-store')
    .send(`<!doctype html>${renderToString(page)}`);
}

/** Every dashboard page: a title, landmarks (banner, navigation, main, contentinfo) and a skip link. */
export function DashboardPage(props: {
  title: string;
  viewer?: DashboardViewer | undefined;
  children: ComponentChildren;
}) {
  const { viewer } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${viewer ? `${viewer.merchant.name} · ` : ''}Payouts dashboard`}</title>
        <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="banner">
          <a class="brand" href="/dashboard">
            {viewer ? viewer.merchant.name : 'Payouts dashboard'}
          </a>
          {viewer && (
            <nav aria-label="Dashboard">
              <ul>
                {DASHBOARD_NAV.filter(([, , permission]) => merchantMay(viewer.user.role, permission)).map(
                  ([href, label]) => (
                    <li>
                      <a href={href}>{label}</a>
                    </li>
                  ),
                )}
              </ul>
            </nav>
          )}
          {viewer && (
            <form class="who" method="post" action="/dashboard/logout">
              <span>
                {viewer.user.email} ({viewer.user.role.toLowerCase()})
              </span>
              <DashboardCsrf viewer={viewer} />
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          )}
        </header>
        <main id="main" tabIndex={-1}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <footer>
          <p>Times are India Standard Time. Amounts are in rupees.</p>
        </footer>
      </body>
    </html>
  );
}

/** A page that only says something: refused, not found, signed out. */
export function DashboardMessage(props: {
  title: string;
  viewer?: DashboardViewer | undefined;
  children: ComponentChildren;
}) {
  return (
    <DashboardPage title={props.title} viewer={props.viewer}>
      {props.children}
    </DashboardPage>
  );
}

/** The hidden CSRF field every signed-in form carries. */
export function DashboardCsrf(props: { viewer: DashboardViewer }) {
  return <input type="hidden" name={DASHBOARD_CSRF_FIELD} value={props.viewer.csrfToken} />;
}
