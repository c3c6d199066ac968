import {
  PENDING_AGE_BUCKETS,
  PENDING_STATES,
  type DayAtAGlance,
  type PendingAgeLabel,
  type SettledSummary,
} from '@payout/db';
import type { PayoutState } from '@payout/domain';
import type { Viewer } from '../console-session.js';
import { BarChart, LineChart } from './charts.js';
import { ist } from './format.js';
import { Page, RowsTable, Section } from './layout.js';

/** The jobs waiting in each of the console's queues, or why Redis could not say. */
export type QueueDepth =
  | {
      available: true;
      counts: { name: string; waiting: number; active: number; delayed: number; failed: number }[];
    }
  | { available: false; reason: string };

/**
 * The day page (docs/operations.md, "The day at a glance"): payouts in and out per mode over the window,
 * how many succeeded and how fast, what is pending and for how long, the webhooks that did not get
 * through, and the queues. Every chart has its numbers in a table under it.
 */
export function TodayPage(props: { viewer: Viewer; hours: number; day: DayAtAGlance; queues: QueueDepth }) {
  const { day, hours } = props;
  const { window } = day;
  const total = day.settled.find((s) => s.mode === null)!;
  const accepted = day.flow.reduce((n, f) => n + f.points.reduce((m, p) => m + p.accepted, 0), 0);
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
        <dl class="facts">
          <dt>Accepted</dt>
          <dd>{accepted}</dd>
          <dt>Settled</dt>
          <dd>{total.settled}</dd>
          <dt>Success rate</dt>
          <dd>{rate(total)}</dd>
          <dt>Acceptance to final, median</dt>
          <dd>{duration(total.p50Ms)}</dd>
          <dt>Acceptance to final, 99th percentile</dt>
          <dd>{duration(total.p99Ms)}</dd>
        </dl>
        <RowsTable
          caption="Settled payouts by mode"
          columns={[
            { header: 'Mode', cell: (s: SettledSummary) => s.mode ?? 'All' },
            {
              header: 'Accepted',
              cell: (s) => (s.mode ? acceptedIn(day, s.mode) : accepted),
              numeric: true,
            },
            { header: 'Settled', cell: (s) => s.settled, numeric: true },
            { header: 'Success', cell: (s) => s.success, numeric: true },
            { header: 'Success rate', cell: rate, numeric: true },
            { header: 'Median', cell: (s) => duration(s.p50Ms), numeric: true },
            { header: '99th percentile', cell: (s) => duration(s.p99Ms), numeric: true },
          ]}
          rows={day.settled}
          empty=""
        />
      </Section>

      <Section id="flow" title="Accepted and settled over time">
        {day.flow.map((f) => (
          <LineChart
            id={`flow-${f.mode.toLowerCase()}`}
            title={`${f.mode}: accepted and settled per ${window.bucketMinutes} min`}
            at={f.points.map((p) => p.at)}
            bucketMinutes={window.bucketMinutes}
            series={[
              { label: 'Accepted', values: f.points.map((p) => p.accepted), look: 'area' },
              { label: 'Settled', values: f.points.map((p) => p.settled), look: 'dashed' },
            ]}
            empty={`No ${f.mode} payouts yet in the last ${hours} h.`}
          />
        ))}
      </Section>

      <Section id="pending" title="Pending now, by age">
        <PendingChart day={day} />
      </Section>

      <Section id="webhooks" title="Webhooks that did not get through">
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
      </Section>

      <Section id="queues" title="Queues">
        {props.queues.available ? (
          <RowsTable
            caption="Jobs in each queue"
            columns={[
              { header: 'Queue', cell: (q) => q.name },
              { header: 'Waiting', cell: (q) => q.waiting, numeric: true },
              { header: 'Active', cell: (q) => q.active, numeric: true },
              { header: 'Delayed', cell: (q) => q.delayed, numeric: true },
              { header: 'Failed', cell: (q) => q.failed, numeric: true },
            ]}
            rows={props.queues.counts}
            empty=""
          />
        ) : (
          <p class="empty">Queue unavailable: Redis did not answer ({props.queues.reason}).</p>
        )}
      </Section>
    </Page>
  );
}

/** Pending payouts as bars by age, and as a table of state by age. */
function PendingChart(props: { day: DayAtAGlance }) {
  const count = (state: PayoutState | null, age: PendingAgeLabel) =>
    props.day.pending
      .filter((p) => (state === null || p.state === state) && p.age === age)
      .reduce((n, p) => n + p.payouts, 0);
  const states = PENDING_STATES.filter((s) => props.day.pending.some((p) => p.state === s));
  return (
    <BarChart
      id="pending-by-age"
      title="Pending payouts by time since acceptance"
      unit="pending payouts"
      bars={PENDING_AGE_BUCKETS.map((b) => ({ label: b.label, value: count(null, b.label) }))}
      empty="No payout is pending."
      table={
        <RowsTable
          caption="Pending payouts by state and time since acceptance"
          columns={[
            { header: 'State', cell: (s: PayoutState | null) => s ?? 'All' },
            ...PENDING_AGE_BUCKETS.map((b) => ({
              header: b.label,
              cell: (s: PayoutState | null) => count(s, b.label),
              numeric: true,
            })),
          ]}
          rows={[...states, null]}
          empty="No payout is pending."
        />
      }
    />
  );
}

function acceptedIn(day: DayAtAGlance, mode: string): number {
  return day.flow.find((f) => f.mode === mode)?.points.reduce((n, p) => n + p.accepted, 0) ?? 0;
}

/** "97.5 %", or a dash when nothing settled. */
function rate(s: SettledSummary): string {
  return s.successRate === null ? '–' : `${(Math.round(s.successRate * 1000) / 10).toFixed(1)} %`;
}

/** "850 ms", "2.4 s", "3 min 20 s", "1 h 5 min", or a dash when nothing settled. */
export function duration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}
