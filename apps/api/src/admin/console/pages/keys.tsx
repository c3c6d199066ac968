import { listPersonalCredentials, type PersonalCredentialView } from '@payout/db';
import { API_KEY_DAYS } from '@payout/domain';
import { exactRouter } from '../console-authorization.js';
import type { ConsoleContext } from '../console-dependencies.js';
import type { Viewer } from '../console-session.js';
import { renderPage } from '../render.js';
import { ist } from '../views/format.js';
import { Csrf, Page, RowsTable, Section, type Column } from '../views/layout.js';

/** Where a person keeps their own credentials for the admin API. */
export const KEYS_PATH = '/console/keys';

/**
 * GET /console/keys, for every role: my own personal credentials — API keys and CLI sign-ins, live,
 * expired and revoked — and the form that makes a new API key (docs/operations.md, "Security model").
 */
export function keysRoutes({ deps, allow }: ConsoleContext) {
  const router = exactRouter();
  router.get(
    KEYS_PATH,
    allow('read', async (_req, res, viewer) => {
      const credentials = await listPersonalCredentials(deps.db, viewer.user.username);
      renderPage(res, 200, <KeysPage viewer={viewer} credentials={credentials} />);
    }),
  );
  return router;
}

export function KeysPage(props: {
  viewer: Viewer;
  credentials: PersonalCredentialView[];
  /** A key made just now: its token, shown this once. */
  created?: { token: string; prefix: string; expiresAt: Date };
  error?: string;
}) {
  const { viewer } = props;
  const now = new Date();
  const columns: Column<PersonalCredentialView>[] = [
    { header: 'Prefix', cell: (c) => <code>{c.prefix}</code> },
    { header: 'Label', cell: (c) => c.label },
    { header: 'Kind', cell: (c) => (c.kind === 'API_KEY' ? 'API key' : 'CLI sign-in') },
    { header: 'Created', cell: (c) => ist(c.createdAt) },
    { header: 'Expires', cell: (c) => `${ist(c.expiresAt)}${c.expiresAt <= now ? ' (expired)' : ''}` },
    { header: 'Last used', cell: (c) => (c.lastUsedAt ? ist(c.lastUsedAt) : 'never') },
    { header: 'Revoked', cell: (c) => (c.revokedAt ? ist(c.revokedAt) : '—') },
    {
      header: 'Action',
      cell: (c) =>
        c.revokedAt || c.expiresAt <= now ? (
          '—'
        ) : (
          <form method="post" action={`${KEYS_PATH}/${encodeURIComponent(c.prefix)}/revoke`} class="action">
            <Csrf viewer={viewer} />
            <button type="submit">Revoke {c.prefix}</button>
          </form>
        ),
    },
  ];
  return (
    <Page title="My keys" viewer={viewer}>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {props.created && (
        <div class="message" role="status">
          <p>
            Your new key <code>{props.created.prefix}</code>, valid until {ist(props.created.expiresAt)}. Copy it now:
            it is never shown again. Use it as <code>PAYOUT_ADMIN_KEY</code> for <code>pnpm cli</code>, or send it as{' '}
            <code>Authorization: Bearer …</code> to /admin/….
          </p>
          <p>
            <code class="secret">{props.created.token}</code>
          </p>
        </div>
      )}
      <p>
        Your own credentials for the admin API: whatever is done with one is done as you ({viewer.user.username},{' '}
        {viewer.user.role.toLowerCase()}) and written to the audit log as such. Revoke a key the moment you no longer
        need it or it may have leaked.
      </p>
      <RowsTable caption="My keys and sign-ins" columns={columns} rows={props.credentials} empty="No key yet." />
      <Section id="new-key" title="Create an API key">
        <form method="post" action={KEYS_PATH} class="stack narrow">
          <Csrf viewer={viewer} />
          <label for="label">Label (what it is for)</label>
          <input id="label" name="label" required maxLength={100} />
          <label for="days">
            Expires after (days, {API_KEY_DAYS.min}–{API_KEY_DAYS.max})
          </label>
          <input
            id="days"
            name="days"
            type="number"
            min={API_KEY_DAYS.min}
            max={API_KEY_DAYS.max}
            value={String(API_KEY_DAYS.default)}
            required
          />
          <button type="submit">Create the key</button>
        </form>
      </Section>
    </Page>
  );
}
