import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '@payout/api';
import { call, impsBody, upiBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { merchantBooks } from '../support/ledger-checks.js';
import { expectAllClear, useFaultStack, type FaultStack } from './fault-stack.js';

// The rail times out: the worker cannot tell whether money moved, so the payout must stay PENDING and be
// decided by asking the bank — never failed on the time-out alone, never sent under a new reference.
// The worker waits 400 ms for an answer (FAST_WORKER); a lost reply is held back for 5 s (FAST_RAIL).
const stack = useFaultStack();
let api: RunningApi;

beforeAll(async () => {
  api = await stack.current.startApi();
  await stack.current.startWorker();
});

interface Sent {
  id: string;
  ackNo: string;
}

async function send(merchant: TestMerchant, amounts: string[]): Promise<Sent[]> {
  const answers = await Promise.all(
    amounts.map((Amount, i) =>
      i % 2
        ? call(api, '/api/payout', { merchant, body: upiBody({ Amount }) })
        : call(api, '/api/impspayout', { merchant, body: impsBody({ Amount }) }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(amounts.map(() => 202));
  const ackNos = answers.map((a) => a.json.Ack_no as string);
  const { rows } = await stack.current.pool.query<{ id: string; ack_no: string }>(
    'SELECT id::text, ack_no FROM payouts WHERE ack_no = ANY($1)',
    [ackNos],
  );
  return ackNos.map((ackNo) => ({ ackNo, id: rows.find((r) => r.ack_no === ackNo)!.id }));
}

/** The states a payout went through, in order. */
async function story(s: FaultStack, payoutId: string): Promise<string[]> {
  const { rows } = await s.pool.query<{ to_state: string }>(
    'SELECT to_state::text FROM payout_events WHERE payout_id = $1 ORDER BY id',
    [payoutId],
  );
  return rows.map((r) => r.to_state);
}

const uniq = (states: string[]) => states.filter((state, i) => state !== states[i - 1]);

describe('rail time-outs', () => {
  it('when the reply to a submit is lost after the bank paid (.33), then the payout waits as OUTCOME_UNKNOWN, an inquiry finds SUCCESS, and it settles once without being sent again', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
    const sent = await send(merchant, ['1.33', '2.33', '3.33']);

    await expectAllClear(s);
    for (const payout of sent) {
      expect(uniq(await story(s, payout.id))).toEqual(['ACCEPTED', 'SUBMITTING', 'OUTCOME_UNKNOWN', 'SUCCESS']);
      expect(s.railSim.payout(payout.ackNo)).toMatchObject({ status: 'SUCCESS', submissions: 1 });
    }
    expect(await merchantBooks(s.pool, merchant.merchant.id)).toMatchObject({ available: 9_301n, ledgerPaidOut: 699n });
  });

  it('when the reply to a submit is lost after the bank declined (.77), then the payout is not failed on the time-out, and the definite FAILED an inquiry finds returns the money once', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
    const sent = await send(merchant, ['1.77', '2.77', '3.77']);

    await expectAllClear(s);
    for (const payout of sent) {
      expect(uniq(await story(s, payout.id))).toEqual(['ACCEPTED', 'SUBMITTING', 'OUTCOME_UNKNOWN', 'FAILED']);
      expect(s.railSim.payout(payout.ackNo)).toMatchObject({
        status: 'FAILED',
        reason: 'DECLINED_BY_BENEFICIARY_BANK',
        submissions: 1,
      });
    }
    const { rows } = await s.pool.query<{ failure_reason: string }>(
      'SELECT failure_reason::text FROM payouts WHERE merchant_id = $1',
      [merchant.merchant.id],
    );
    expect(rows.map((r) => r.failure_reason)).toEqual(sent.map(() => 'DECLINED_BY_BENEFICIARY_BANK'));
    expect(await merchantBooks(s.pool, merchant.merchant.id)).toMatchObject({
      available: 10_000n,
      reserved: 0n,
      ledgerPaidOut: 0n,
    });
  });

  it('when the bank answers everything only after the time-out for a while, then payouts stay PENDING through silent inquiries and settle — paid SUCCESS, declined FAILED — once it answers in time', async () => {
    const s = stack.current;
    await s.restartRail({ latencyMs: 1_000 });
    const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
    const [paid, declined] = await send(merchant, ['4.00', '5.11']);

    // Two inquiries each, both timed out, and still undecided.
    await eventually(
      () =>
        s.pool.query<{ state: string; inquiry_attempts: number }>(
          'SELECT state::text, inquiry_attempts FROM payouts WHERE merchant_id = $1',
          [merchant.merchant.id],
        ),
      (r) => r.rows.length === 2 && r.rows.every((p) => p.state === 'OUTCOME_UNKNOWN' && p.inquiry_attempts >= 2),
      { what: 'two silent inquiries each' },
    );
    expect(s.railSim.payout(paid!.ackNo)).toMatchObject({ status: 'SUCCESS' }); // the bank did pay, long ago

    await s.restartRail({ latencyMs: 0 });
    await expectAllClear(s);
    expect(uniq(await story(s, paid!.id)).slice(-2)).toEqual(['OUTCOME_UNKNOWN', 'SUCCESS']);
    expect(uniq(await story(s, declined!.id)).slice(-2)).toEqual(['OUTCOME_UNKNOWN', 'FAILED']);
    expect([paid, declined].map((p) => s.railSim.payout(p!.ackNo)?.submissions)).toEqual([1, 1]);
    expect(await merchantBooks(s.pool, merchant.merchant.id)).toMatchObject({ available: 9_600n, ledgerPaidOut: 400n });
  });
});
