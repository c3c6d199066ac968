import type { MerchantOverview, OperatorActionView } from '@payout/db';
import type { Viewer } from '../console-session.js';
import { istDate, ist, rupees } from './format.js';
import { ActionButton, Page, RowsTable, Section, StatusBadge, type Column } from './layout.js';
import { payoutColumns } from './payout-columns.js';
import { PayoutFilterForm } from './payout-filter-form.js';
import { AuditTable } from './audit-table.js';

/** A merchant's page: balances, recent payouts and credits, tokens, webhook health, and what operators did. */
export function MerchantPage(props: {
  viewer: Viewer;
  merchant: MerchantOverview;
  actions: OperatorActionView[];
  today: Date;
}) {
  const m = props.merchant;
  const base = `/console/merchants/${encodeURIComponent(m.mid)}`;
  const today = istDate(props.today);
  return (
    <Page title={`Merchant ${m.mid}`} viewer={props.viewer}>
      <Section id="balance" title="Balance">
        <dl class="facts">
          <dt>Name</dt>
          <dd>
            {m.name} · <StatusBadge status={m.status} />
          </dd>
          <dt>Available</dt>
          <dd>{rupees(m.availablePaise)}</dd>
          <dt>Reserved (payouts in flight)</dt>
          <dd>{rupees(m.reservedPaise)}</dd>
          <dt>Settled today</dt>
          <dd>
            {rupees(m.settledTodayPaise)} in {m.settledTodayCount} payout(s)
          </dd>
        </dl>
        <div class="actions">
          <ActionButton viewer={props.viewer} href={`${base}/credit`} label="Request a credit…" needs="request" />
          <ActionButton viewer={props.viewer} href={`${base}/bulk`} label="Bulk payouts from CSV…" />
        </div>
      </Section>

      <Section id="payouts" title="Payouts">
        <PayoutFilterForm base={base} action={`${base}/payouts`} from={today} to={today} />
        <RowsTable caption="Recent payouts" columns={payoutColumns} rows={m.recentPayouts} empty="No payouts yet." />
      </Section>

      <Section id="credits" title="Recent credits">
        <RowsTable caption="Recent credits" columns={creditColumns} rows={m.recentCredits} empty="No credits yet." />
      </Section>

      <Section id="tokens" title="API tokens">
        <RowsTable caption="API tokens" columns={tokenColumns(props.viewer, base)} rows={m.tokens} empty="No tokens." />
        <div class="actions">
          <ActionButton
            viewer={props.viewer}
            href={`${base}/tokens/rotate`}
            label="Request another token…"
            needs="request"
          />
        </div>
      </Section>

      <Section id="webhook" title="Webhook">
        {m.webhook ? (
          <dl class="facts">
            <dt>Endpoint</dt>
            <dd>
              <code>{m.webhook.url}</code> (secret <code>{m.webhook.secretPrefix}…</code>)
            </dd>
            {m.webhook.disabled && (
              <>
                <dt>Disabled</dt>
                <dd class="error">
                  since {ist(m.webhook.disabled.at)}: {m.webhook.disabled.reason ?? 'failed a whole retry window'}.{' '}
                  {m.webhook.health.held} deliveries held; enable with{' '}
                  <code>pnpm cli webhook enable --mid {m.mid}</code> or{' '}
                  <ActionButton viewer={props.viewer} href={`${base}/webhook/enable`} label="Enable…" />
                </dd>
              </>
            )}
            <dt>Today</dt>
            <dd>
              {m.webhook.health.delivered} delivered, {m.webhook.health.failed} given up, {m.webhook.health.pending}{' '}
              pending, {m.webhook.health.held} held
            </dd>
            <dt>Last attempt</dt>
            <dd>
              {m.webhook.lastAttempt
                ? `${ist(m.webhook.lastAttempt.at)}: ${m.webhook.lastAttempt.statusCode === null ? (m.webhook.lastAttempt.error ?? 'no answer recorded') : `HTTP ${m.webhook.lastAttempt.statusCode}`}`
                : 'none yet'}
            </dd>
          </dl>
        ) : (
          <p class="empty">No webhook endpoint registered (pnpm cli merchant webhook).</p>
        )}
      </Section>

      <Section id="audit" title="Operator actions on this merchant">
        <AuditTable actions={props.actions} empty="No operator has acted on this merchant." />
      </Section>
    </Page>
  );
}

/** A merchant's credits: by an operator, or paid in. */
const creditColumns: Column<MerchantOverview['recentCredits'][number]>[] = [
  { header: 'When', cell: (c) => ist(c.at) },
  { header: 'Kind', cell: (c) => (c.kind === 'WALLET_CREDIT' ? 'operator credit' : 'pay-in') },
  { header: 'Reference', cell: (c) => c.reference ?? '' },
  { header: 'Amount', cell: (c) => rupees(c.amountPaise), numeric: true },
];

/** A merchant's API tokens; a live one can be revoked from its row. */
function tokenColumns(viewer: Viewer, merchantBase: string): Column<MerchantOverview['tokens'][number]>[] {
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
