import type { ComponentChildren } from 'preact';
import { RowsTable, type Column } from './layout.js';

// The console's charts (docs/operations.md, "The day at a glance"): SVG drawn on the server, no script, no
// CDN. Each is an image with a title and a description that say its numbers, a legend in words (the
// series differ by line style as well as colour), and a table of the same numbers under it, so a screen
// reader, a page without CSS and a person who cannot tell the colours apart all get the data. Colours
// are attributes of the SVG itself, so the chart reads even when the stylesheet does not load.

/** The drawing area of a chart, in SVG units (the SVG scales to its box). */
export interface ChartGeometry {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const CHART_GEOMETRY: ChartGeometry = { width: 720, height: 240, left: 48, right: 16, top: 16, bottom: 40 };

/** One line of a line chart: its name in the legend, one value per bucket, and how it is drawn. */
export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** An area under a solid line, or a dashed line on top: told apart without colour. */
  look: 'area' | 'dashed';
}

const LOOKS = {
  area: { stroke: '#0550ae', fill: '#0550ae', dash: undefined },
  dashed: { stroke: '#116329', fill: 'none', dash: '6 4' },
} as const;

const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const IST_CLOCK = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const IST_DAY = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short' });

/** "14:30", or the date ("26 Nov") at IST midnight, where a new day starts on an axis. */
export function istTick(at: Date): string {
  return (at.getTime() + IST_OFFSET_MS) % 86_400_000 === 0 ? IST_DAY.format(at) : IST_CLOCK.format(at);
}

/** The smallest round value at or above `max` that splits into the chart's two gridlines: 2, 4, 10, 20, 50… */
export function niceMax(max: number): number {
  if (max <= 2) return 2;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 4, 5, 10]) if (m * step >= max && (m * step) % 2 === 0) return m * step;
  return 10 * step;
}

/** Where each value sits in the drawing: evenly across, 0 at the bottom and `max` at the top. */
export function scalePoints(
  values: readonly number[],
  max: number,
  g: ChartGeometry = CHART_GEOMETRY,
): [x: number, y: number][] {
  const plotWidth = g.width - g.left - g.right;
  const plotHeight = g.height - g.top - g.bottom;
  const x = (i: number) =>
    values.length <= 1 ? g.left + plotWidth / 2 : g.left + (i * plotWidth) / (values.length - 1);
  const y = (v: number) => g.top + plotHeight - (max ? (v / max) * plotHeight : 0);
  return values.map((v, i) => [round(x(i)), round(y(v))]);
}

/** An SVG path through the points: "M48,200 L56,184 …". */
export function linePath(points: readonly [number, number][]): string {
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${x},${y}`).join(' ');
}

/** The path closed down to the baseline, for the area under a line. */
export function areaPath(points: readonly [number, number][], g: ChartGeometry = CHART_GEOMETRY): string {
  if (!points.length) return '';
  const baseline = g.height - g.bottom;
  return `${linePath(points)} L${points.at(-1)![0]},${baseline} L${points[0]![0]},${baseline} Z`;
}

/** The bucket indexes that get a time label: on round IST times, no more than about eight of them. */
export function tickIndexes(at: readonly Date[], bucketMinutes: number): number[] {
  if (!at.length) return [];
  const spanMinutes = at.length * bucketMinutes;
  const every = [10, 30, 60, 120, 180, 360, 720, 1440].find((m) => m >= bucketMinutes && spanMinutes / m <= 8) ?? 1440;
  return at.flatMap((t, i) => ((t.getTime() + IST_OFFSET_MS) % (every * 60_000) === 0 ? [i] : []));
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The numbers of a line chart in words, for its <desc>. */
export function describeSeries(series: readonly ChartSeries[], at: readonly Date[], bucketMinutes: number): string {
  return series
    .map((s) => {
      const total = sum(s.values);
      if (!total) return `${s.label}: none.`;
      const most = Math.max(...s.values);
      const when = at[s.values.indexOf(most)]!;
      return `${s.label}: ${total} in all; the most, ${most}, in the ${bucketMinutes} min from ${IST_CLOCK.format(when)} IST.`;
    })
    .join(' ');
}

export interface LineChartProps {
  /** Unique on the page: ties the SVG to its title and description. */
  id: string;
  title: string;
  /** The start of each bucket. */
  at: readonly Date[];
  bucketMinutes: number;
  series: readonly ChartSeries[];
  /** Shown instead of the chart when every value is zero. */
  empty: string;
}

/** Counts per bucket over time, one line per series, then the same counts as a table. */
export function LineChart(props: LineChartProps) {
  const { id, at, bucketMinutes, series } = props;
  if (!at.length || series.every((s) => sum(s.values) === 0)) {
    return (
      <figure class="chart" id={id}>
        <figcaption>{props.title}</figcaption>
        <p class="empty">{props.empty}</p>
      </figure>
    );
  }
  const g = CHART_GEOMETRY;
  const max = niceMax(Math.max(...series.flatMap((s) => s.values)));
  const xs = scalePoints(
    at.map(() => 0),
    max,
    g,
  ).map(([x]) => x);
  const description = describeSeries(series, at, bucketMinutes);
  const rows = at.flatMap((t, i) => (series.some((s) => s.values[i]) ? [i] : []));
  const columns: Column<number>[] = [
    { header: 'From (IST)', cell: (i) => IST_CLOCK.format(at[i]) },
    ...series.map((s) => ({ header: s.label, cell: (i: number) => s.values[i] ?? 0, numeric: true })),
  ];
  return (
    <figure class="chart" id={id}>
      <figcaption>{props.title}</figcaption>
      <svg
        role="img"
        viewBox={`0 0 ${g.width} ${g.height}`}
        aria-labelledby={`${id}-title ${id}-desc`}
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <Axes g={g} max={max}>
          {tickIndexes(at, bucketMinutes).map((i) => (
            <text x={xs[i]} y={g.height - g.bottom + 18} text-anchor="middle">
              {istTick(at[i]!)}
            </text>
          ))}
        </Axes>
        {series.map((s) => {
          const look = LOOKS[s.look];
          const points = scalePoints(s.values, max, g);
          return (
            <g class={`series series-${s.look}`}>
              {s.look === 'area' && <path d={areaPath(points, g)} fill={look.fill} fill-opacity="0.15" stroke="none" />}
              <path
                d={linePath(points)}
                fill="none"
                stroke={look.stroke}
                stroke-width="2"
                stroke-dasharray={look.dash}
                stroke-linejoin="round"
              />
            </g>
          );
        })}
      </svg>
      <Legend series={series} />
      <RowsTable
        caption={`${props.title}: each ${bucketMinutes} min with payouts`}
        columns={columns}
        rows={rows}
        empty={props.empty}
      />
    </figure>
  );
}

/** A bar of a bar chart: its label under it and its count over it. */
export interface Bar {
  label: string;
  value: number;
}

export interface BarChartProps {
  id: string;
  title: string;
  bars: readonly Bar[];
  /** What a bar counts, for the description: "pending payouts". */
  unit: string;
  /** The table of the same numbers, in whatever breakdown suits them. */
  table: ComponentChildren;
  empty: string;
}

/** Counts side by side, each bar labelled with its number, then a table of them. */
export function BarChart(props: BarChartProps) {
  const { id, bars } = props;
  if (bars.every((b) => b.value === 0)) {
    return (
      <figure class="chart" id={id}>
        <figcaption>{props.title}</figcaption>
        <p class="empty">{props.empty}</p>
      </figure>
    );
  }
  const g = CHART_GEOMETRY;
  const max = niceMax(Math.max(...bars.map((b) => b.value)));
  const plotWidth = g.width - g.left - g.right;
  const plotHeight = g.height - g.top - g.bottom;
  const slot = plotWidth / bars.length;
  const description = `${bars.map((b) => `${b.label}: ${b.value}`).join('; ')} ${props.unit}.`;
  return (
    <figure class="chart" id={id}>
      <figcaption>{props.title}</figcaption>
      <svg
        role="img"
        viewBox={`0 0 ${g.width} ${g.height}`}
        aria-labelledby={`${id}-title ${id}-desc`}
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <Axes g={g} max={max}>
          {bars.map((b, i) => (
            <text x={round(g.left + slot * (i + 0.5))} y={g.height - g.bottom + 18} text-anchor="middle">
              {b.label}
            </text>
          ))}
        </Axes>
        {bars.map((b, i) => {
          const height = round((b.value / max) * plotHeight);
          const x = round(g.left + slot * i + slot * 0.2);
          const y = round(g.top + plotHeight - height);
          return (
            <g class="bar">
              <rect x={x} y={y} width={round(slot * 0.6)} height={height} fill="#7d4e00" fill-opacity="0.75" />
              <text x={round(g.left + slot * (i + 0.5))} y={y - 4} text-anchor="middle" font-weight="600">
                {b.value}
              </text>
            </g>
          );
        })}
      </svg>
      {props.table}
    </figure>
  );
}

/** The axes, the gridlines at 0, half and `max`, and the labels the chart puts under the x axis. */
function Axes(props: { g: ChartGeometry; max: number; children: ComponentChildren }) {
  const { g, max } = props;
  const plotHeight = g.height - g.top - g.bottom;
  return (
    <g class="axes" font-size="12" fill="#57606a">
      {[0, max / 2, max].map((v) => {
        const y = round(g.top + plotHeight - (v / max) * plotHeight);
        return (
          <g>
            <line x1={g.left} x2={g.width - g.right} y1={y} y2={y} stroke="#d0d7de" />
            <text x={g.left - 6} y={y + 4} text-anchor="end">
              {v}
            </text>
          </g>
        );
      })}
      {props.children}
    </g>
  );
}

/** The legend in words, each name next to a sample of its line. */
function Legend(props: { series: readonly ChartSeries[] }) {
  return (
    <ul class="legend">
      {props.series.map((s) => {
        const look = LOOKS[s.look];
        return (
          <li>
            <svg width="28" height="12" aria-hidden="true" focusable="false">
              <line
                x1="0"
                x2="28"
                y1="6"
                y2="6"
                stroke={look.stroke}
                stroke-width={s.look === 'area' ? 4 : 2}
                stroke-dasharray={look.dash}
              />
            </svg>{' '}
            {s.label} ({s.look === 'area' ? 'solid, shaded' : 'dashed'})
          </li>
        );
      })}
    </ul>
  );
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
