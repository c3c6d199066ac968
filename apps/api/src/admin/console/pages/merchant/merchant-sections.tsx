import type { MerchantOverview, MerchantTeamMember } from '@payout/db';
import type { Viewer } from '../../console-session.js';
import { ist, rupees } from '../../views/format.js';
import { ActionButton, type Column } from '../../views/layout.js';

/** A merchant's credits: by an operator, or paid in. */
export const creditColumns: Column<MerchantOverview['recentCredits'][number]>[] = [
  { header: 'When', cell: (c) => ist(c.at) },
  { header: 'Kind', cell: (c) => (c.kind === 'WALLET_CREDIT' ? 'operator credit' : 'pay-in') },
  { header: 'Reference', cell: (c) => c.reference ?? '' },
  { header: 'Amount', cell: (c) => rupees(c.amountPaise), numeric: true },
];

/** A merchant's API tokens; a live one can be revoked from its row. */
export function tokenColumns(viewer: Viewer, merchantBase: string): Column<MerchantOverview['tokens'][number]>[] {
  return [
    { header: 'Id', cell: (t) => t.id },
    { header: 'Prefix', cell: (t) => <code>{t.prefix}…</code> },
    { header: 'Issued', cell: (t) => ist(t.createdAt) },
    { header: 'Last used', cell: (t) => (t.lastUsedAt ? ist(t.lastUsedAt) : 'never') },
    {
      header: 'State',
      cell: (t) =>
        t.revokedAt ? (
          `revoked ${ist(t.revokedAt)}`
        ) : (
          <ActionButton viewer={viewer} href={`${merchantBase}/tokens/${t.id}/revoke`} label="Revoke…" />
        ),
    },
  ];
}

/**
 * The merchant's people on its dashboard, read-only (they change their team themselves); a person can be
 * disabled from their row for an incident (docs/dashboard.md, "The team").
 */
export function teamColumns(viewer: Viewer, merchantBase: string): Column<MerchantTeamMember>[] {
  return [
    { header: 'Id', cell: (p) => p.id },
    { header: 'E-mail', cell: (p) => p.email },
    { header: 'Role', cell: (p) => p.role.toLowerCase() },
    { header: 'Enrolled', cell: (p) => (p.enrolled ? 'yes' : 'not yet') },
    { header: 'Added by', cell: (p) => `${p.addedBy}, ${ist(p.createdAt)}` },
    {
      header: 'State',
      cell: (p) =>
        p.disabledAt ? (
          `disabled ${ist(p.disabledAt)} by ${p.disabledBy ?? 'unknown'}`
        ) : (
          <ActionButton viewer={viewer} href={`${merchantBase}/team/${p.id}/disable`} label="Disable…" />
        ),
    },
  ];
}

/**
 * The merchant's webhook endpoint and how its deliveries went today; a disabled one says since when and
 * how to enable it (docs/webhooks.md, "An endpoint that keeps failing is disabled").
 */
export function WebhookFacts({ viewer, merchant: m }: { viewer: Viewer; merchant: MerchantOverview }) {
  if (!m.webhook) return <p class="empty">No webhook endpoint registered (pnpm cli merchant webhook).</p>;
  const { health, disabled, lastAttempt } = m.webhook;
  const base = `/console/merchants/${encodeURIComponent(m.mid)}`;
  return (
    <dl class="facts">
      <dt>Endpoint</dt>
      <dd>
        <code>{m.webhook.url}</code>{' '}
        {m.webhook.secretPrefix === null ? (
          <>
            (no signing secret yet: the merchant fetches its own with <code>POST /api/webhook/secret</code>; its
            deliveries are held until then)
          </>
        ) : (
          <>
            (secret <code>{m.webhook.secretPrefix}…</code>)
          </>
        )}
      </dd>
      {disabled && (
        <>
          <dt>Disabled</dt>
          <dd class="error">
            since {ist(disabled.at)}: {disabled.reason ?? 'failed a whole retry window'}. {health.held} deliveries held;
            enable with <code>pnpm cli webhook enable --mid {m.mid}</code> or{' '}
            <ActionButton viewer={viewer} href={`${base}/webhook/enable`} label="Enable…" />
          </dd>
        </>
      )}
      <dt>Today</dt>
      <dd>
        {health.delivered} delivered, {health.failed} given up, {health.pending} pending, {health.held} held
      </dd>
      <dt>Last attempt</dt>
      <dd>
        {lastAttempt
          ? `${ist(lastAttempt.at)}: ${lastAttempt.statusCode === null ? (lastAttempt.error ?? 'no answer recorded') : `HTTP ${lastAttempt.statusCode}`}`
          : 'none yet'}
      </dd>
    </dl>
  );
}
