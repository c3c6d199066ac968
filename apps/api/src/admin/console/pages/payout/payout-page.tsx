import type { OperatorActionView, PayoutStory } from '@payout/db';
import type { Viewer } from '../../console-session.js';
import type { TimelineEntry } from '../../payout-timeline.js';
import { AuditTable } from '../../views/audit-table.js';
import { elapsed, ist } from '../../views/format.js';
import { ActionButton, Page, Section } from '../../views/layout.js';
import { PayoutFacts, type Payout } from './payout-facts.js';

/** A payout's page: what the merchant sees, what we know inside, what can be done, and its whole story. */
export function PayoutPage(props: {
  viewer: Viewer;
  story: PayoutStory;
  timeline: TimelineEntry[];
  actions: OperatorActionView[];
  jobsNote?: string | undefined;
}) {
  const p = props.story.payout;
  return (
    <Page title={`Payout ${p.ackNo}`} viewer={props.viewer}>
      <Section id="summary" title="Summary">
        <PayoutFacts payout={p} />
      </Section>
      <Section id="actions" title="Actions">
        <PayoutActions viewer={props.viewer} payout={p} />
      </Section>
      <Section id="timeline" title="Timeline">
        {props.jobsNote && <p class="hint">{props.jobsNote}</p>}
        <PayoutTimeline payout={p} timeline={props.timeline} />
      </Section>
      <Section id="audit" title="Operator actions on this payout">
        <AuditTable actions={props.actions} empty="No operator has acted on this payout." />
      </Section>
    </Page>
  );
}

/** The payout's actions, each disabled with the reason when it does not apply to this payout now. */
function PayoutActions({ viewer, payout: p }: { viewer: Viewer; payout: Payout }) {
  const base = `/console/payouts/${p.ackNo}`;
  const waitingOnTheRail = p.state === 'AWAITING_RAIL' || p.state === 'OUTCOME_UNKNOWN';
  return (
    <div class="actions">
      <ActionButton
        viewer={viewer}
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
        viewer={viewer}
        href={`${base}/replay-webhook`}
        label="Replay webhook…"
        unavailable={p.status === 'PENDING' ? 'A pending payout has no result to send yet.' : undefined}
      />
      <ActionButton
        viewer={viewer}
        href={`${base}/requeue-inquiry`}
        label="Re-queue inquiry…"
        unavailable={
          waitingOnTheRail
            ? undefined
            : `Only a payout waiting on the rail has an inquiry to ask (this one is ${p.state}).`
        }
      />
    </div>
  );
}

/** Every step of the payout's story, each with how long after acceptance it came. */
function PayoutTimeline(props: { payout: Payout; timeline: TimelineEntry[] }) {
  return (
    <ol class="timeline">
      {props.timeline.map((e) => (
        <li class={`t-${e.kind}`}>
          <p class="when">
            <time dateTime={e.at.toISOString()}>{ist(e.at)}</time>{' '}
            <span class="rel">{elapsed(props.payout.createdAt, e.at)} after accept</span>
          </p>
          <p class="what">
            <span class="kind">{e.kind}</span> {e.title}
          </p>
          <p class="detail">{e.detail}</p>
          {e.raw && <pre class="raw">{e.raw}</pre>}
        </li>
      ))}
    </ol>
  );
}
