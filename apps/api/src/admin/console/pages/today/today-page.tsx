import type { DayAtAGlance } from '@payout/db';
import { BANK_CONTROL_ACTIONS, type BankControlAction, type BankOverview } from '@payout/use-cases';
import { bankPath } from '../../actions/bank-control.js';
import type { Viewer } from '../../console-session.js';
import { LineChart } from '../../views/charts.js';
import { ist } from '../../views/format.js';
import { ActionButton, Page, RowsTable, Section, StatusBadge } from '../../views/layout.js';
import { PendingChart } from './pending-chart.js';
import type { QueueDepth } from './queue-depths.js';
import { SettledSummary } from './settled-summary.js';

/**
 * The day page (docs/operations.md, "The day at a glance"): payouts in and out per mode over the window,
 * how many succeeded and how fast, what is pending and for how long, the webhooks that did not get
 * through, the queues, and each sponsor bank's health and hold. Every chart has its numbers in a table under it.
 */
export function TodayPage(props: {
  viewer: Viewer;
  hours: number;
  day: DayAtAGlance;
  queues: QueueDepth;
  banks: BankOverview[];
}) {
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
      <Section id="banks" title="Banks">
        <BankTable viewer={props.viewer} banks={props.banks} />
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

/** The state each bank action leaves a bank in, as a verb for its button. */
const ACTION_LABEL: Record<BankControlAction, string> = { pause: 'Pause…', drain: 'Drain…', resume: 'Resume…' };

/**
 * Each configured bank (docs/operations.md, "Banks: pausing, draining, pinning"): the operator's hold, routing's
 * last score per mode it serves (eliminated when routing took it out), its open downtimes, and the actions.
 */
function BankTable({ viewer, banks }: { viewer: Viewer; banks: BankOverview[] }) {
  return (
    <RowsTable
      caption="Sponsor banks"
      columns={[
        { header: 'Bank', cell: (b) => (b.enabled ? b.name : `${b.name} (disabled in BANKS)`) },
        {
          header: 'Hold',
          cell: (b) => (
            <>
              <StatusBadge status={b.control.state} />
              {'changedBy' in b.control && (
                <span class="why">
                  {' '}
                  by {b.control.changedBy} at {ist(b.control.changedAt)}
                  {b.control.reason ? `: ${b.control.reason}` : ''}
                </span>
              )}
            </>
          ),
        },
        {
          header: 'Health per mode',
          cell: (b) => (
            <ul class="plain">
              {b.modes.map((mode) => {
                const h = b.health.find((row) => row.mode === mode);
                return (
                  <li>
                    {mode}: {healthText(h)}
                  </li>
                );
              })}
            </ul>
          ),
        },
        {
          header: 'Open downtimes',
          cell: (b) =>
            b.downtimes.length === 0
              ? 'none'
              : b.downtimes.map((d) => `${d.mode} ${d.status} since ${ist(d.since)}`).join('; '),
        },
        {
          header: 'Actions',
          cell: (b) => (
            <div class="actions">
              {(Object.keys(BANK_CONTROL_ACTIONS) as BankControlAction[]).map((action) => (
                <ActionButton
                  viewer={viewer}
                  href={bankPath(b.name, action)}
                  label={ACTION_LABEL[action]}
                  unavailable={
                    BANK_CONTROL_ACTIONS[action] === b.control.state ? `It is ${b.control.state} now.` : undefined
                  }
                />
              ))}
            </div>
          ),
        },
      ]}
      rows={banks}
      empty="No bank is configured."
    />
  );
}

function healthText(h: BankOverview['health'][number] | undefined): string {
  if (!h) return 'not scored yet';
  const outcomes = `${h.paid} paid, ${h.refused} refused, ${h.technical} technical, ${h.timeouts} timed out`;
  const score = h.score === null ? 'too few outcomes to score' : `score ${h.score.toFixed(2)}`;
  return `${score}${h.eliminated ? ', eliminated' : ''} (${outcomes})`;
}
