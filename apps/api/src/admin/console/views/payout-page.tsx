import type { OperatorActionView, PayoutStory } from '@payout/db';
import { payoutMessage, type FailureReason, type PayoutStatus } from '@payout/domain';
import type { Viewer } from '../console-session.js';
import type { TimelineEntry } from '../payout-timeline.js';
import { elapsed, ist, rupees } from './format.js';
import { ActionButton, Page, Section, StatusBadge } from './layout.js';
import { AuditTable } from './audit-table.js';

/** A payout's page: what the merchant sees, what we know inside, what can be done, and its whole story. */
export function PayoutPage(props: {
  viewer: Viewer;
  story: PayoutStory;
  timeline: TimelineEntry[];
  actions: OperatorActionView[];
  jobsNote?: string | undefined;
}) {
  const p = props.story.payout;
  const base = `/console/payouts/${p.ackNo}`;
  const status = p.status as PayoutStatus;
  const lookupStatus = status.charAt(0) + status.slice(1).toLowerCase();
  return (
    <Page title={`Payout ${p.ackNo}`} viewer={props.viewer}>
      <Section id="summary" title="Summary">
        <dl class="facts">
          <dt>Merchant</dt>
          <dd>
            <a href={`/console/merchants/${encodeURIComponent(p.mid)}`}>{p.mid}</a> · {p.merchantName}
          </dd>
          <dt>TransactionID</dt>
          <dd>{p.transactionId}</dd>
          <dt>Amount</dt>
          <dd>
            {rupees(p.amountPaise)} by {p.mode}
          </dd>
          <dt>Merchant sees</dt>
          <dd>
            <StatusBadge status={p.status} /> “{lookupStatus}” ·{' '}
            {payoutMessage(status, p.failureReason as FailureReason | null)}
          </dd>
          <dt>Bankriff (UTR)</dt>
          <dd>{p.bankReference ?? '—'}</dd>
          <dt>State inside</dt>
          <dd>
            {p.state} · {p.submitAttempts} submit(s), {p.inquiryAttempts} inquiry(ies)
            {p.nextCheckAt && ` · next step due ${ist(p.nextCheckAt)}`}
          </dd>
          <dt>Beneficiary</dt>
          <dd>
            {p.beneficiaryName} · {p.beneficiaryAccount}
            {p.beneficiaryIfsc && ` · ${p.beneficiaryIfsc}`}
          </dd>
          <dt>Accepted</dt>
          <dd>{ist(p.createdAt)}</dd>
          <dt>Settled</dt>
          <dd>{p.settledAt ? `${ist(p.settledAt)} (${elapsed(p.createdAt, p.settledAt)} after accept)` : '—'}</dd>
        </dl>
      </Section>

      <Section id="actions" title="Actions">
        <div class="actions">
          <ActionButton
            viewer={props.viewer}
            href={`${base}/resolve`}
            label="Resolve manual review…"
            needs="request"
            unavailable={
              p.state === 'MANUAL_REVIEW'
                ? undefined
                : `Only a payout under manual review is resolved by hand (this one is ${p.state}).`
            }
          />
          <ActionButton
            viewer={props.viewer}
            href={`${base}/replay-webhook`}
            label="Replay webhook…"
            unavailable={p.status === 'PENDING' ? 'A pending payout has no result to send yet.' : undefined}
          />
          <ActionButton
            viewer={props.viewer}
            href={`${base}/requeue-inquiry`}
            label="Re-queue inquiry…"
            unavailable={
              p.state === 'AWAITING_RAIL' || p.state === 'OUTCOME_UNKNOWN'
                ? undefined
                : `Only a payout waiting on the rail has an inquiry to ask (this one is ${p.state}).`
            }
          />
        </div>
      </Section>

      <Section id="timeline" title="Timeline">
        {props.jobsNote && <p class="hint">{props.jobsNote}</p>}
        <ol class="timeline">
          {props.timeline.map((e) => (
            <li class={`t-${e.kind}`}>
              <p class="when">
                <time dateTime={e.at.toISOString()}>{ist(e.at)}</time>{' '}
                <span class="rel">{elapsed(p.createdAt, e.at)} after accept</span>
              </p>
              <p class="what">
                <span class="kind">{e.kind}</span> {e.title}
              </p>
              <p class="detail">{e.detail}</p>
              {e.raw && <pre class="raw">{e.raw}</pre>}
            </li>
          ))}
        </ol>
      </Section>

      <Section id="audit" title="Operator actions on this payout">
        <AuditTable actions={props.actions} empty="No operator has acted on this payout." />
      </Section>
    </Page>
  );
}
