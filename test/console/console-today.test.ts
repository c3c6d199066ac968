import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { PrismaClient } from '@payout/db';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { testPool, testPrisma } from '../support/database.js';
import { useStack } from '../support/stack.js';
import { aDayOfPayouts } from './day-fixtures.js';

// The day page (docs/operations.md, "The day at a glance"): the counts in its tables are the payouts the
// database holds, support may read it, and a bad window is refused with a page that says why.

// The deliveries are moved by hand (day-fixtures.ts): this file's worker does not sweep.
const stack = useStack({ worker: { SWEEP_INTERVAL_MS: '600000' } });
let db: PrismaClient;
let pool: pg.Pool;
let support: ConsolePerson;

beforeAll(async () => {
  db = testPrisma();
  pool = testPool();
  await aDayOfPayouts(db, pool);
  support = await signedInPerson(stack.current.api.adminUrl, 'support');
});
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

/** The cells of the row of the table captioned `caption` whose first cell is `first`, as text. */
function row(html: string, caption: string, first: string): string[] | undefined {
  const table = html.split(`<caption>${caption}</caption>`)[1]?.split('</table>')[0] ?? '';
  for (const [, cells] of table.matchAll(/<tr>(.*?)<\/tr>/g)) {
    const texts = [...cells!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map(([, c]) => c!.replace(/<[^>]+>/g, ''));
    if (texts[0] === first) return texts;
  }
  return undefined;
}

describe('the day page', () => {
  it('when support opens it, then the settled table counts accepted, settled, success and the success rate per mode', async () => {
    const { status, html } = await support.page('/console/today');
    expect(status).toBe(200);
    expect(html).toContain('<a href="/console/today">Today</a>');
    const settled = 'Settled payouts by mode';
    expect(row(html, settled, 'UPI')?.slice(0, 5)).toEqual(['UPI', '6', '6', '5', '83.3 %']);
    expect(row(html, settled, 'IMPS')?.slice(0, 5)).toEqual(['IMPS', '4', '1', '1', '100.0 %']);
    expect(row(html, settled, 'All')?.slice(0, 5)).toEqual(['All', '10', '7', '6', '85.7 %']);
    // Settled within the test's few seconds: the median and 99th percentile are durations, not dashes.
    expect(row(html, settled, 'All')?.[5]).toMatch(/^\d+ ms$|^\d+\.\d s$/);
  });

  it('when payouts wait at the rail, then the pending table puts each in its state and age bucket', async () => {
    const { html } = await support.page('/console/today');
    const pending = 'Pending payouts by state and time since acceptance';
    expect(row(html, pending, 'State')).toEqual([
      'State',
      'under 1 min',
      '1–5 min',
      '5–30 min',
      '30 min–2 h',
      'over 2 h',
    ]);
    expect(row(html, pending, 'SUBMITTING')).toEqual(['SUBMITTING', '1', '0', '1', '0', '1']);
    expect(html).toContain(
      '<desc id="pending-by-age-desc">under 1 min: 1; 1–5 min: 0; 5–30 min: 1; 30 min–2 h: 0; over 2 h: 1 pending payouts.</desc>',
    );
  });

  it('when payouts came and went, then each mode has a chart titled and described by its numbers', async () => {
    const { html } = await support.page('/console/today');
    expect(html).toContain('<title id="flow-upi-title">UPI: accepted and settled per 10 min</title>');
    expect(html).toMatch(/<desc id="flow-upi-desc">Accepted: 6 in all; .* Settled: 6 in all;/);
    expect(html).toMatch(/<desc id="flow-imps-desc">Accepted: 4 in all; .* Settled: 1 in all;/);
  });

  it('when deliveries did not get through, then the webhooks part counts the failing, held and given-up ones', async () => {
    const { html } = await support.page('/console/today');
    expect(html).toContain('<dt>Failing (retrying)</dt><dd>1</dd>');
    expect(html).toContain('<dt>Held (endpoint disabled)</dt><dd>1</dd>');
    expect(html).toContain('<dt>Given up</dt><dd>1</dd>');
  });

  it('when Redis answers, then the queues table shows both queues', async () => {
    const { html } = await support.page('/console/today');
    expect(row(html, 'Jobs in each queue', 'Payouts')).toHaveLength(5);
    expect(row(html, 'Jobs in each queue', 'Webhooks')).toHaveLength(5);
  });

  it('when asked for the last hour, then the window and its one-minute buckets say so', async () => {
    const { status, html } = await support.page('/console/today?hours=1');
    expect(status).toBe(200);
    expect(html).toContain('The last 1 h');
    expect(html).toContain('per 1 min');
    // The payout accepted 3 hours ago is outside the hour; the settled ones are not.
    expect(row(html, 'Settled payouts by mode', 'All')?.slice(0, 3)).toEqual(['All', '9', '7']);
  });

  it('when the hours are not a whole number from 1 to 72, then the page is a 400 that says so', async () => {
    for (const hours of ['abc', '0', '73', '1.5', '']) {
      const { status, html } = await support.page(`/console/today?hours=${hours}`);
      expect(status, `?hours=${hours}`).toBe(400);
      expect(html).toContain('Not a number of hours');
    }
  });
});
