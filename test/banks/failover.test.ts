import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '@payout/worker';
import { useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { workerConfig } from '../support/stack.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { registerEndpoint } from '../webhooks/webhook-fixtures.js';
import { startSwitchableBank, type SwitchableBank } from './switchable-bank.js';
import { allIn, downtimes, eliminated, FAST_ROUTING, payoutsOf, sendPayouts, twoBanks } from './support.js';

// Two sponsor banks and the real API and worker (docs/banks.md). `primary` takes every payout while it is
// healthy (weight 1; `secondary` has weight 0: it is only the fallback). Then primary answers 503 to every
// submit: the payouts it answered stay with it — status checks — until its definitive no (NOT_FOUND a trust
// age after the last submit, once routing has eliminated it), and only then go to secondary; new payouts go
// to secondary at once; a downtime opens for primary. When primary pays again, its probes bring it back:
// the downtime is resolved and traffic returns. No payout is ever paid by both banks. The merchant hears of
// it at its webhook endpoint: downtime.started, then downtime.resolved.

const prisma = testPrisma();
const pool: pg.Pool = testPool();
const TRUST_MS = Number(FAST_ROUTING.RAIL_NOT_FOUND_TRUSTED_AFTER_MS);
let primary: SwitchableBank;
let secondary: SwitchableBank;
let worker: RunningWorker;
let merchant: TestMerchant;
let endpoint: WebhookReceiver;

beforeAll(async () => {
  primary = await startSwitchableBank('up');
  secondary = await startSwitchableBank('up');
});
const api = useApi(() => ({ BANKS: twoBanks(primary.url, secondary.url, [1, 0]) }));
beforeAll(async () => {
  worker = await startWorker(
    workerConfig({
      BANKS: twoBanks(primary.url, secondary.url, [1, 0]),
      ...FAST_ROUTING,
      ROUTING_PROBE_SHARE: '0.1',
    }),
  );
  merchant = await makeMerchant(prisma, { balance: '5000.00' });
  endpoint = await WebhookReceiver.start('/hooks/payouts');
  await registerEndpoint(prisma, merchant, endpoint.url);
});
afterAll(async () => {
  await worker.close();
  await primary.close();
  await secondary.close();
  await endpoint.close();
  await prisma.$disconnect();
  await pool.end();
});

/** The downtime webhooks the merchant has received (its payouts' webhooks arrive at the same endpoint). */
function downtimeEventsReceived(): { event: string; bank: string; mode: string }[] {
  return endpoint.received
    .map((r) => JSON.parse(r.body) as { event: string; bank: string; mode: string })
    .filter((body) => body.event.startsWith('downtime.'))
    .map(({ event, bank, mode }) => ({ event, bank, mode }));
}

/** Which banks paid each reference: exactly one each, or the test fails. */
function expectPaidOnce(references: string[]): Record<string, string> {
  const payer: Record<string, string> = {};
  for (const reference of references) {
    const payers = [
      ...(primary.paid.has(reference) ? ['primary'] : []),
      ...(secondary.paid.has(reference) ? ['secondary'] : []),
    ];
    expect(payers, `banks that paid ${reference}`).toHaveLength(1);
    payer[reference] = payers[0]!;
  }
  return payer;
}

describe('two banks: the first goes down, and comes back', () => {
  it('while both are healthy, the preferred bank pays, routed by score', async () => {
    const sent = await sendPayouts(api.current, merchant, 3);
    const rows = await allIn(pool, merchant.merchant.id, ['SUCCESS']);
    expect(rows.map((r) => [r.bank, r.routing?.bank])).toEqual(sent.map(() => ['primary', 'primary']));
    expect(Object.values(expectPaidOnce(sent))).toEqual(sent.map(() => 'primary'));
  });

  it('when the first bank answers 503 to every submit, then the payouts it answered stay with it until its definitive no, then go to the other, paid once', async () => {
    primary.manner = 'down';
    const sent = await sendPayouts(api.current, merchant, 6);
    await eventually(
      () => eliminated(pool, 'primary'),
      (is) => is,
      { timeoutMs: 10_000, what: 'primary to be eliminated for IMPS' },
    );
    const rows = (await allIn(pool, merchant.merchant.id, ['SUCCESS'], 30_000)).filter((r) => sent.includes(r.ack_no));
    expect(Object.values(expectPaidOnce(sent))).toEqual(sent.map(() => 'secondary'));
    // Those sent to primary before it was eliminated (enough of them to eliminate it) moved by failover; any
    // routed after went to secondary straight away.
    const moved = rows.filter((r) => primary.submits.has(r.ack_no));
    expect(moved.length).toBeGreaterThanOrEqual(4);
    expect(new Set(moved.map((r) => `${r.bank} ${r.routing?.reason}`))).toEqual(new Set(['secondary failover']));
    expect(rows.filter((r) => !primary.submits.has(r.ack_no)).map((r) => `${r.bank} ${r.routing?.reason}`)).toEqual(
      rows.filter((r) => !primary.submits.has(r.ack_no)).map(() => 'secondary best-score'),
    );
    for (const reference of moved.map((r) => r.ack_no)) {
      // Never sent to the second bank before the first's NOT_FOUND could be believed: a trust age after
      // the last submit to the first (the claim is recorded a moment before the submit arrives).
      const lastAtPrimary = Math.max(...primary.submits.get(reference)!);
      const firstAtSecondary = Math.min(...secondary.submits.get(reference)!);
      expect(firstAtSecondary - lastAtPrimary).toBeGreaterThanOrEqual(TRUST_MS - 100);
    }
    // The story says why: the first bank's NOT_FOUND, the move, and the decision.
    const { rows: story } = await pool.query<{ reason: string; bank: string | null }>(
      `SELECT reason, bank FROM payout_events WHERE payout_id = $1 ORDER BY id`,
      [moved[0]!.id],
    );
    expect(story.filter((e) => e.bank !== null).map((e) => e.bank)).toEqual(['primary', 'secondary']);
    expect(story.map((e) => e.reason).join('\n')).toMatch(
      /bank primary has no record of it long after the last submit and no longer serves IMPS: moving it to another bank/,
    );
    expect(story.map((e) => e.reason).join('\n')).toMatch(
      /sending the instruction to the rail: bank secondary \(failover/,
    );
    expect(await downtimes(pool)).toEqual([{ bank: 'primary', mode: 'IMPS', status: 'DOWN', resolved: false }]);
    const heard = await eventually(
      () => Promise.resolve(downtimeEventsReceived()),
      (events) => events.length > 0,
      { what: 'the merchant to receive downtime.started' },
    );
    expect(heard).toEqual([{ event: 'downtime.started', bank: 'primary', mode: 'IMPS' }]);
  });

  it('while the first bank is eliminated, then new payouts are paid by the other within seconds, but for the probes', async () => {
    const started = Date.now();
    const sent = await sendPayouts(api.current, merchant, 8);
    const settled = await eventually(
      () => payoutsOf(pool, merchant.merchant.id),
      (rows) =>
        rows
          .filter((r) => sent.includes(r.ack_no) && r.routing?.reason !== 'probe')
          .every((r) => r.state === 'SUCCESS'),
      { timeoutMs: 5_000, what: 'the payouts routed to secondary to be paid' },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const routed = settled.filter((r) => sent.includes(r.ack_no) && r.routing?.reason !== 'probe');
    expect(routed.length).toBeGreaterThan(0);
    expect(new Set(routed.map((r) => `${r.bank} ${r.routing?.reason}`))).toEqual(new Set(['secondary best-score']));
    const metrics = await worker.metrics.registry.getSingleMetricAsString('rail_request_duration_seconds');
    expect(metrics).toMatch(/bank="primary",operation="submit",outcome="UNKNOWN"/);
    expect(metrics).toMatch(/bank="secondary",operation="submit",outcome="SUCCESS"/);
  });

  it('when the first bank pays again, then its probes bring it back: the downtime is resolved and new payouts go to it again', async () => {
    primary.manner = 'up';
    const sent: string[] = [];
    await eventually(
      async () => {
        sent.push(...(await sendPayouts(api.current, merchant, 1)));
        return downtimes(pool);
      },
      (list) => list.length === 1 && list[0]!.resolved,
      { timeoutMs: 30_000, intervalMs: 100, what: 'the downtime of primary to be resolved' },
    );
    expect(await eliminated(pool, 'primary')).toBe(false);
    // Back, it may still score below the other while its 503s are in the health window: the best score wins
    // until they age out of it (ROUTING_WINDOW_MS), and from then on it is the preferred bank again.
    const back: string[] = [];
    await eventually(
      async () => {
        back.push(...(await sendPayouts(api.current, merchant, 1)));
        return payoutsOf(pool, merchant.merchant.id);
      },
      (rows) =>
        rows.some((r) => back.includes(r.ack_no) && r.routing?.bank === 'primary' && r.routing.reason !== 'probe'),
      {
        timeoutMs: 3 * Number(FAST_ROUTING.ROUTING_WINDOW_MS),
        intervalMs: 200,
        what: 'a payout routed to primary, not as a probe',
      },
    );
    const after = await sendPayouts(api.current, merchant, 3);
    const rows = await allIn(pool, merchant.merchant.id, ['SUCCESS'], 30_000);
    expect(rows.filter((r) => after.includes(r.ack_no)).map((r) => r.bank)).toEqual(after.map(() => 'primary'));
    // Every payout of the whole story was paid by exactly one bank, and the books balance.
    expectPaidOnce(rows.map((r) => r.ack_no));
    const heard = await eventually(
      () => Promise.resolve(downtimeEventsReceived()),
      (events) => events.length > 1,
      { what: 'the merchant to receive downtime.resolved' },
    );
    expect(heard).toEqual([
      { event: 'downtime.started', bank: 'primary', mode: 'IMPS' },
      { event: 'downtime.resolved', bank: 'primary', mode: 'IMPS' },
    ]);
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.reserved).toBe(0n);
    expect(books.ledgerPaidOut).toBe(BigInt(rows.length) * 1_000n);
  });
});
