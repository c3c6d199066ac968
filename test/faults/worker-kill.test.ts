import { describe, expect, it } from 'vitest';
import { call, impsBody, upiBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { expectAllClear, useFaultStack, type FaultStack } from './fault-stack.js';
import { TcpProxy } from './tcp-proxy.js';

// A worker process killed outright (SIGKILL: no shutdown, no cleanup) on either side of the rail call.
// The one that dies claims short rail time-outs, so the payouts it held are due for an inquiry soon.
// The two tests wait out those time-outs side by side, each on a queue of its own. A survivor's sweeper
// may queue the other test's overdue payouts on its own queue, which is harmless by design; the doomed
// workers do not sweep, so neither takes the other's payouts into its grave.
const stack = useFaultStack({ railSim: { latencyMs: 600 } });
const DOOMED = { RAIL_CONNECT_TIMEOUT_MS: '100', RAIL_RESPONSE_TIMEOUT_MS: '1000', SWEEP_INTERVAL_MS: '600000' };

async function acceptFour(s: FaultStack, queue: { QUEUE_PREFIX: string }): Promise<string[]> {
  const api = await s.startApi(queue);
  const merchant = await makeMerchant(s.prisma, { balance: '100.00' });
  const answers = await Promise.all(
    [1, 2, 3, 4].map((i) =>
      i % 2
        ? call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: `${i}.00` }) })
        : call(api, '/api/payout', { merchant, body: upiBody({ Amount: `${i}.00` }) }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
  return answers.map((a) => a.json.Ack_no as string);
}

async function statesOf(s: FaultStack, ackNos: string[]): Promise<string[]> {
  const { rows } = await s.pool.query<{ state: string }>('SELECT state::text FROM payouts WHERE ack_no = ANY($1)', [
    ackNos,
  ]);
  return rows.map((r) => r.state);
}

describe.concurrent('worker killed', () => {
  it('when a worker is SIGKILLed after claiming payouts but before its rail calls arrive, then another worker finds the bank never got them, sends each once, and each settles once', async ({
    expect,
  }) => {
    const s = stack.current;
    const queue = { QUEUE_PREFIX: `${s.queuePrefix}-before` };
    // The doomed worker's rail calls go into a black hole: sent, never delivered.
    const blackhole = await TcpProxy.start(Number(new URL(s.railUrl).port), 'blackhole');
    try {
      const doomed = s.startWorkerProcess({ ...DOOMED, ...queue, RAIL_BASE_URL: `http://127.0.0.1:${blackhole.port}` });
      await doomed.logged('worker started');
      const ackNos = await acceptFour(s, queue);
      await eventually(
        () => Promise.resolve(doomed.lines.filter((l) => l.msg === 'submitting payout to the rail').length),
        (n) => n === 4,
        { what: 'the doomed worker to send all four' },
      );
      doomed.kill('SIGKILL');
      expect((await doomed.exited).signal).toBe('SIGKILL');

      expect(await statesOf(s, ackNos)).toEqual(['SUBMITTING', 'SUBMITTING', 'SUBMITTING', 'SUBMITTING']);
      expect(ackNos.map((ack) => s.railSim.payout(ack))).toEqual([undefined, undefined, undefined, undefined]);

      const survivor = await s.startWorker({ ...queue, RAIL_RESPONSE_TIMEOUT_MS: '2000' });
      try {
        await expectAllClear(s);
      } finally {
        await survivor.close();
      }
      expect(await statesOf(s, ackNos)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
      // Sent again under the same reference after the inquiry found nothing: the bank's first submit of it.
      expect(ackNos.map((ack) => s.railSim.payout(ack)?.submissions)).toEqual([1, 1, 1, 1]);
    } finally {
      await blackhole.close();
    }
  });

  it('when a worker is SIGKILLed after the bank paid but before it recorded the answer, then another worker learns of the payment by inquiry and settles each once, without sending it again', async ({
    expect,
  }) => {
    const s = stack.current;
    const queue = { QUEUE_PREFIX: `${s.queuePrefix}-after` };
    const doomed = s.startWorkerProcess({ ...DOOMED, ...queue });
    await doomed.logged('worker started');
    const ackNos = await acceptFour(s, queue);
    // The bank pays on receipt; its answers are still on their way (600 ms of latency) when the worker dies.
    await eventually(
      () => Promise.resolve(ackNos.filter((ack) => s.railSim.payout(ack)?.status === 'SUCCESS').length),
      (n) => n === 4,
      { what: 'the bank to pay all four' },
    );
    doomed.kill('SIGKILL');
    expect((await doomed.exited).signal).toBe('SIGKILL');
    expect(await statesOf(s, ackNos)).toEqual(['SUBMITTING', 'SUBMITTING', 'SUBMITTING', 'SUBMITTING']);

    const survivor = await s.startWorker({ ...queue, RAIL_RESPONSE_TIMEOUT_MS: '2000' });
    try {
      await expectAllClear(s);
    } finally {
      await survivor.close();
    }
    expect(await statesOf(s, ackNos)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(ackNos.map((ack) => s.railSim.payout(ack)?.submissions)).toEqual([1, 1, 1, 1]);
  });
});
