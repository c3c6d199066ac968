import type { MerchantOverview, MerchantTeamMember, OperatorActionView } from '@payout/db';
import type { Viewer } from '../../console-session.js';
import { AuditTable } from '../../views/audit-table.js';
import { istDate, rupees } from '../../views/format.js';
import { ActionButton, Page, RowsTable, Section, StatusBadge } from '../../views/layout.js';
import { payoutColumns } from '../../views/payout-columns.js';
import { PayoutFilterForm } from '../../views/payout-filter-form.js';
import { creditColumns, teamColumns, tokenColumns, WebhookFacts } from './merchant-sections.js';

/** A merchant's page: balances, recent payouts and credits, tokens, webhook health, and what operators did. */
export function MerchantPage(props: {
  viewer: Viewer;
  merchant: MerchantOverview;
  actions: OperatorActionView[];
  /** The merchant's own people on its dashboard (docs/dashboard.md, "The team"). */
  team: MerchantTeamMember[];
  today: Date;
}) {
  const m = props.merchant;
  const base = `/console/merchants/${encodeURIComponent(m.mid)}`;
  const today = istDate(props.today);
  return (
    <Page title={`Merchant ${m.mid}`} viewer={props.viewer}>
      <Section id="balance" title="Balance">
        <BalanceFacts merchant={m} />
        <div class="actions">
          <ActionButton viewer={props.viewer} href={`${base}/credit`} label="Request a credit…" needs="request" />
          <ActionButton
            viewer={props.viewer}
            href={`${base}/bulk`}
            label="Request bulk payouts from CSV…"
            needs="request"
          />
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
            label="Register a merchant-made token…"
            needs="request"
          />
        </div>
      </Section>

      <Section id="ip-allowlist" title="IP allow-list">
        {m.ipAllowlist.length === 0 ? (
          <p class="empty">No allow-list: the tokens work from any address.</p>
        ) : (
          <ul>
            {m.ipAllowlist.map((cidr) => (
              <li key={cidr}>
                <code>{cidr}</code>
              </li>
            ))}
          </ul>
        )}
        <div class="actions">
          <ActionButton
            viewer={props.viewer}
            href={`${base}/ip-allowlist`}
            label="Request a new allow-list…"
            needs="request"
          />
        </div>
      </Section>

      <Section id="routing" title="Bank routing">
        <dl class="facts">
          <dt>Pinned to</dt>
          <dd>{m.routing.pinnedBank ?? 'no bank: routed by health'}</dd>
          <dt>Hold window through a downtime</dt>
          <dd>{holdWindow(m.routing.downtimeHoldSeconds)}</dd>
        </dl>
        <div class="actions">
          <ActionButton viewer={props.viewer} href={`${base}/routing`} label="Change the routing…" />
        </div>
      </Section>

      <Section id="webhook" title="Webhook">
        <WebhookFacts viewer={props.viewer} merchant={m} />
      </Section>

      <Section id="team" title="Dashboard team">
        <RowsTable
          caption="Who signs in to the merchant's dashboard"
          columns={teamColumns(props.viewer, base)}
          rows={props.team}
          empty="Nobody yet: the owner is bound to their enrollment through the request below."
        />
        <div class="actions">
          <ActionButton
            viewer={props.viewer}
            href={`${base}/owner-enrollment`}
            label="Request the owner's enrollment…"
            needs="request"
          />
        </div>
      </Section>

      <Section id="audit" title="Operator actions on this merchant">
        <AuditTable actions={props.actions} empty="No operator has acted on this merchant." />
      </Section>
    </Page>
  );
}

/** A hold window as people read it: 30 min, 90 s, 2 h. */
function holdWindow(seconds: number): string {
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** What the merchant has: available, reserved for payouts in flight, and settled today. */
function BalanceFacts({ merchant: m }: { merchant: MerchantOverview }) {
  return (
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
  );
}
