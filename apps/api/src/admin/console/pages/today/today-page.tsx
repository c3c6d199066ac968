import type { DayAtAGlance } from '@payout/db';
import type { Viewer } from '../../console-session.js';
import { LineChart } from '../../views/charts.js';
import { ist } from '../../views/format.js';
import { Page, RowsTable, Section } from '../../views/layout.js';
import { PendingChart } from './pending-chart.js';
import type { QueueDepth } from './queue-depths.js';
import { SettledSummary } from './settled-summary.js';

/**
 * The day page (docs/operations.md, "The day at a glance"): payouts in and out per mode over the window,
 * how many succeeded and how fast, what is pending and for how long, the webhooks that did not get
 * through, and the queues. Every chart has its numbers in a table under it.
 */
export function TodayPage(props: { viewer: Viewer; hours: number; day: DayAtAGlance; queues: QueueDepth }) {
  const { day, hours } = props;
  const { window } = day;
  return (
    <Page title="Today" viewer={props.viewer}>
      <p>
        The last {hours} h: from {ist(window.from)} to {ist(window.to)}, counted in {window.bucketMinutes} min buckets.
      </p>
      <form method="get" class="filters">
        <label>
          Look back <input type="number" name="hours" min="1" max="72" value={String(hours)} /> hours
        </label>
        <button type="submit">Show</button>
      </form>
      <Section id="summary" title="In and out">
        <SettledSummary day={day} />
      </Section>
      <Section id="flow" title="Accepted and settled over time">
        <FlowCharts day={day} hours={hours} />
      </Section>
      <Section id="pending" title="Pending now, by age">
        <PendingChart day={day} />
      </Section>
      <Section id="webhooks" title="Webhooks that did not get through">
        <WebhookTrouble day={day} />
      </Section>
      <Section id="queues" title="Queues">
        <QueueTable queues={props.queues} />
      </Section>
    </Page>
  );
}

/** Per mode, payouts accepted and settled in each bucket of the window. */
function FlowCharts({ day, hours }: { day: DayAtAGlance; hours: number }) {
  const { bucketMinutes } = day.window;
  return (
    <>
      {day.flow.map((f) => (
        <LineChart
          id={`flow-${f.mode.toLowerCase()}`}
          title={`${f.mode}: accepted and settled per ${bucketMinutes} min`}
          at={f.points.map((p) => p.at)}
          bucketMinutes={bucketMinutes}
          series={[
            { label: 'Accepted', values: f.points.map((p) => p.accepted), look: 'area' },
            { label: 'Settled', values: f.points.map((p) => p.settled), look: 'dashed' },
          ]}
          empty={`No ${f.mode} payouts yet in the last ${hours} h.`}
        />
      ))}
    </>
  );
}

/** The deliveries for the window's settled payouts that are failing, held or given up. */
function WebhookTrouble({ day }: { day: DayAtAGlance }) {
  return (
    <>
      <p>Deliveries for the payouts settled in the window.</p>
      <dl class="facts">
        <dt>Failing (retrying)</dt>
        <dd>{day.webhooks.failing}</dd>
        <dt>Held (endpoint disabled)</dt>
        <dd>{day.webhooks.held}</dd>
        <dt>Given up</dt>
        <dd>{day.webhooks.givenUp}</dd>
      </dl>
      <p>
        <a href="/console/lists/failed-webhooks">Held and given-up deliveries</a>
      </p>
    </>
  );
}

function QueueTable({ queues }: { queues: QueueDepth }) {
  if (!queues.available) return <p class="empty">Queue unavailable: Redis did not answer ({queues.reason}).</p>;
  return (
    <RowsTable
      caption="Jobs in each queue"
      columns={[
        { header: 'Queue', cell: (q) => q.name },
        { header: 'Waiting', cell: (q) => q.waiting, numeric: true },
        { header: 'Active', cell: (q) => q.active, numeric: true },
        { header: 'Delayed', cell: (q) => q.delayed, numeric: true },
        { header: 'Failed', cell: (q) => q.failed, numeric: true },
      ]}
      rows={queues.counts}
      empty=""
    />
  );
}
