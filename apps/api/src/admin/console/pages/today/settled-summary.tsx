import type { DayAtAGlance, SettledSummary as Settled } from '@payout/db';
import { RowsTable } from '../../views/layout.js';

/** Payouts accepted and settled in the window, how many succeeded and how fast: in all, then per mode. */
export function SettledSummary({ day }: { day: DayAtAGlance }) {
  const total = day.settled.find((s) => s.mode === null)!;
  const accepted = day.flow.reduce((n, f) => n + f.points.reduce((m, p) => m + p.accepted, 0), 0);
  return (
    <>
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
          { header: 'Mode', cell: (s: Settled) => s.mode ?? 'All' },
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
    </>
  );
}

function acceptedIn(day: DayAtAGlance, mode: string): number {
  return day.flow.find((f) => f.mode === mode)?.points.reduce((n, p) => n + p.accepted, 0) ?? 0;
}

/** "97.5 %", or a dash when nothing settled. */
function rate(s: Settled): string {
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
