import { PENDING_AGE_BUCKETS, PENDING_STATES, type DayAtAGlance, type PendingAgeLabel } from '@payout/db';
import type { PayoutState } from '@payout/domain';
import { BarChart } from '../../views/charts.js';
import { RowsTable } from '../../views/layout.js';

/** Pending payouts as bars by age, and as a table of state by age. */
export function PendingChart(props: { day: DayAtAGlance }) {
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
