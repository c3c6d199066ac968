import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import {
  BarChart,
  CHART_GEOMETRY,
  LineChart,
  areaPath,
  istTick,
  linePath,
  niceMax,
  scalePoints,
  tickIndexes,
  type LineChartProps,
} from './charts.js';

// 14:00 IST on 26 Nov 2026, and the 10 min buckets after it.
const START = new Date('2026-11-26T08:30:00.000Z');
const buckets = (n: number, minutes = 10) =>
  Array.from({ length: n }, (_, i) => new Date(START.getTime() + i * minutes * 60_000));

function flowChart(accepted: number[], settled: number[]): LineChartProps {
  return {
    id: 'flow-upi',
    title: 'UPI: accepted and settled per 10 min',
    at: buckets(accepted.length),
    bucketMinutes: 10,
    series: [
      { label: 'Accepted', values: accepted, look: 'area' },
      { label: 'Settled', values: settled, look: 'dashed' },
    ],
    empty: 'No UPI payouts yet.',
  };
}

describe('the scale of a chart', () => {
  it('when values are drawn, then the first is at the left edge, the last at the right, and max at the top', () => {
    // 720 wide, 48 left and 16 right: 656 across; 240 high, 16 top and 40 bottom: 184 down.
    expect(scalePoints([0, 2, 4], 4)).toEqual([
      [48, 200],
      [376, 108],
      [704, 16],
    ]);
  });

  it('when the points are joined, then the line moves to the first and draws to the rest, and the area closes on the baseline', () => {
    const points = scalePoints([0, 2, 4], 4);
    expect(linePath(points)).toBe('M48,200 L376,108 L704,16');
    expect(areaPath(points)).toBe('M48,200 L376,108 L704,16 L704,200 L48,200 Z');
  });

  it('when there is one bucket, then its point sits in the middle', () => {
    expect(scalePoints([3], 4)).toEqual([[376, 62]]);
  });

  it('when the largest count is known, then the top of the axis is a round even number at or above it', () => {
    expect([0, 1, 2, 3, 7, 10, 15, 45, 101].map(niceMax)).toEqual([2, 2, 2, 4, 10, 10, 20, 50, 200]);
  });

  it('when buckets cover a day, then the time labels fall on round IST hours, no more than eight', () => {
    const day = buckets(144);
    const ticks = tickIndexes(day, 10);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks.map((i) => istTick(day[i]!))).toEqual([
      '15:00',
      '18:00',
      '21:00',
      '27 Nov',
      '03:00',
      '06:00',
      '09:00',
      '12:00',
    ]);
  });
});

describe('the line chart', () => {
  it('when there are payouts, then the SVG is an image titled and described by its numbers, with a legend and a table', () => {
    const html = renderToString(LineChart(flowChart([1, 3, 0, 2], [0, 1, 2, 2])));
    expect(html).toContain('<svg role="img"');
    expect(html).toContain('aria-labelledby="flow-upi-title flow-upi-desc"');
    expect(html).toContain('<title id="flow-upi-title">UPI: accepted and settled per 10 min</title>');
    expect(html).toContain(
      '<desc id="flow-upi-desc">Accepted: 6 in all; the most, 3, in the 10 min from 14:10 IST. ' +
        'Settled: 5 in all; the most, 2, in the 10 min from 14:20 IST.</desc>',
    );
    // Max 3 rounds up to 4: the accepted line through 1, 3, 0, 2.
    const accepted = linePath(scalePoints([1, 3, 0, 2], 4, CHART_GEOMETRY));
    expect(html).toContain(`d="${accepted}"`);
    expect(html).toContain('stroke-dasharray="6 4"');
    expect(html).toContain('Accepted (solid, shaded)');
    expect(html).toContain('Settled (dashed)');
    expect(html).toMatch(/<td>14:10<\/td><td class="num">3<\/td><td class="num">1<\/td>/);
  });

  it('when no payout came or went, then it says so instead of drawing an empty chart', () => {
    const html = renderToString(LineChart(flowChart([0, 0, 0], [0, 0, 0])));
    expect(html).toContain('No UPI payouts yet.');
    expect(html).not.toContain('<svg');
  });
});

describe('the bar chart', () => {
  it('when there are counts, then each bar carries its number and the description lists them', () => {
    const html = renderToString(
      BarChart({
        id: 'pending',
        title: 'Pending by age',
        unit: 'pending payouts',
        bars: [
          { label: 'under 1 min', value: 2 },
          { label: 'over 2 h', value: 1 },
        ],
        table: null,
        empty: 'No payout is pending.',
      }),
    );
    expect(html).toContain('<desc id="pending-desc">under 1 min: 2; over 2 h: 1 pending payouts.</desc>');
    expect(html).toMatch(/<rect [^>]*height="184"/);
    expect(html).toMatch(/<rect [^>]*height="92"/);
  });

  it('when nothing is pending, then it says so', () => {
    const html = renderToString(
      BarChart({
        id: 'p',
        title: 'Pending',
        unit: 'payouts',
        bars: [{ label: 'a', value: 0 }],
        table: null,
        empty: 'No payout is pending.',
      }),
    );
    expect(html).toContain('No payout is pending.');
    expect(html).not.toContain('<svg');
  });
});
