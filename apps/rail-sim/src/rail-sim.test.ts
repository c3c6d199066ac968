import { newAckNo } from '@payout/domain';
import { createHttpRailAdapter, type RailAdapter } from '@payout/rails';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRailSim, type RailSim, type RailSimOptions, type RailSimServer } from './index.js';
import { impsInstruction, upiInstruction } from './test-instructions.js';

const SETTLE_AFTER_MS = 200;

const imps = impsInstruction;
const upi = upiInstruction;

// Polls for a state the simulator reaches on its own; bounded, so a bug fails the test instead of hanging it.
async function waitFor<T>(probe: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached within ${timeoutMs} ms; last: ${String(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('rail simulator through the HTTP rail adapter', () => {
  let sim: RailSim;
  let server: RailSimServer;
  let rail: RailAdapter;
  const extra: { close(): Promise<void> }[] = [];

  async function start(options: RailSimOptions = {}): Promise<void> {
    sim = createRailSim({ settleAfterMs: SETTLE_AFTER_MS, ...options });
    server = await sim.listen(0);
    rail = createHttpRailAdapter({ baseUrl: server.url, connectTimeoutMs: 1_000, responseTimeoutMs: 5_000 });
  }

  function impatientRail(): RailAdapter {
    const adapter = createHttpRailAdapter({ baseUrl: server.url, connectTimeoutMs: 1_000, responseTimeoutMs: 200 });
    extra.push(adapter);
    return adapter;
  }

  beforeEach(async () => {
    await start();
  });

  afterEach(async () => {
    await Promise.all([rail.close(), ...extra.splice(0).map((a) => a.close())]);
    await server.close();
  });

  it('when an ordinary amount is paid, then it succeeds with a 12-digit UTR, unique per payment', async () => {
    const answers = await Promise.all([
      rail.submit(imps(10150n)),
      rail.submit(upi(10150n)),
      ...Array.from({ length: 8 }, (_, i) => rail.submit(imps(100n + BigInt(i) * 100n))),
    ]);
    const utrs = answers.map((a) => (a.outcome === 'SUCCESS' ? a.bankReference : a.outcome));
    for (const utr of utrs) expect(utr).toMatch(/^[0-9]{12}$/);
    expect(new Set(utrs).size).toBe(answers.length);
    expect(sim.stats()).toMatchObject({ references: 10, payments: 10, submitRequests: 10, duplicateSubmits: 0 });
  });

  it('when the paise are .11, then the beneficiary bank declines it and nothing is paid', async () => {
    const instruction = imps(50011n);
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' });
    expect(await rail.status(instruction.reference)).toMatchObject({
      outcome: 'FAILED',
      reason: 'DECLINED_BY_BENEFICIARY_BANK',
    });
    expect(sim.stats().payments).toBe(0);
  });

  it('when the paise are .22, then it is PENDING and turns SUCCESS once the settle time has passed', async () => {
    const instruction = upi(12322n);
    const submittedAt = Date.now();
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'PENDING' });
    expect(sim.stats().payments).toBe(0);

    const settled = await waitFor(
      () => rail.status(instruction.reference),
      (a) => a.outcome !== 'PENDING',
    );
    expect(Date.now() - submittedAt).toBeGreaterThanOrEqual(SETTLE_AFTER_MS);
    expect(settled).toMatchObject({ outcome: 'SUCCESS', bankReference: expect.stringMatching(/^[0-9]{12}$/) });
    expect(await rail.status(instruction.reference)).toEqual(settled);
    expect(sim.stats().payments).toBe(1);
  });

  it('when the paise are .33, then the money moves, the reply never comes, and status() reveals SUCCESS', async () => {
    const instruction = imps(99933n);
    const answer = await impatientRail().submit(instruction);
    expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/no reply .* 200 ms/) });

    const status = await rail.status(instruction.reference);
    expect(status).toMatchObject({ outcome: 'SUCCESS', bankReference: expect.stringMatching(/^[0-9]{12}$/) });
    expect(sim.stats()).toMatchObject({ payments: 1, submitRequests: 1 });
  });

  it('when a .33 submit is sent again, then the current state comes back at once and nothing is paid twice', async () => {
    const instruction = imps(99933n);
    expect(await impatientRail().submit(instruction)).toMatchObject({ outcome: 'UNKNOWN' });
    const again = await rail.submit(instruction);
    const status = await rail.status(instruction.reference);
    expect(again.outcome === 'SUCCESS' && again.bankReference).toMatch(/^[0-9]{12}$/);
    expect(status.outcome === 'SUCCESS' && status.bankReference).toBe(
      again.outcome === 'SUCCESS' && again.bankReference,
    );
    expect(sim.stats()).toMatchObject({ payments: 1, duplicateSubmits: 1 });
  });

  it('when the paise are .77, then it fails at once, the reply never comes, and status() reveals FAILED', async () => {
    const instruction = upi(88877n);
    const answer = await impatientRail().submit(instruction);
    expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/no reply .* 200 ms/) });
    expect(await rail.status(instruction.reference)).toMatchObject({
      outcome: 'FAILED',
      reason: 'DECLINED_BY_BENEFICIARY_BANK',
    });
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' });
    expect(sim.stats()).toMatchObject({ payments: 0, references: 1, duplicateSubmits: 1 });
  });

  it('when the paise are .44, then two submits get 503 and the third pays, once', async () => {
    const instruction = upi(44n);
    const first = await rail.submit(instruction);
    expect(first).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/HTTP 503/) });
    expect(await rail.status(instruction.reference)).toMatchObject({ outcome: 'NOT_FOUND' });
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'UNKNOWN' });
    expect(sim.stats().payments).toBe(0);

    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'SUCCESS' });
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'SUCCESS' });
    expect(sim.stats()).toMatchObject({ payments: 1, references: 1, submitRequests: 4, duplicateSubmits: 1 });
    expect(sim.payout(instruction.reference)?.submissions).toBe(4);
  });

  it('when the paise are .55, then it stays PENDING even after a .22 payout has settled', async () => {
    const forever = imps(755n);
    const settles = imps(722n);
    expect(await rail.submit(forever)).toMatchObject({ outcome: 'PENDING' });
    expect(await rail.submit(settles)).toMatchObject({ outcome: 'PENDING' });
    await waitFor(
      () => rail.status(settles.reference),
      (a) => a.outcome === 'SUCCESS',
    );
    expect(await rail.status(forever.reference)).toMatchObject({ outcome: 'PENDING' });
    expect(await rail.submit(forever)).toMatchObject({ outcome: 'PENDING' });
  });

  it('when the IMPS account starts 0000, then it fails as an invalid beneficiary account', async () => {
    expect(await rail.submit(imps(10000n, { account: '0000123456' }))).toMatchObject({
      outcome: 'FAILED',
      reason: 'INVALID_BENEFICIARY_ACCOUNT',
    });
  });

  it('when the UPI address starts with "invalid", then it fails as an invalid UPI address', async () => {
    expect(await rail.submit(upi(10000n, { account: 'invalid.person@okbank' }))).toMatchObject({
      outcome: 'FAILED',
      reason: 'INVALID_UPI_ADDRESS',
    });
    expect(sim.stats().payments).toBe(0);
  });

  it('when one reference is submitted 5 times at once, then it is paid once and 4 submits are duplicates', async () => {
    const instruction = imps(250000n);
    const answers = await Promise.all(Array.from({ length: 5 }, () => rail.submit(instruction)));
    const utrs = new Set(answers.map((a) => (a.outcome === 'SUCCESS' ? a.bankReference : a.outcome)));
    expect(utrs.size).toBe(1);
    expect([...utrs][0]).toMatch(/^[0-9]{12}$/);
    expect(sim.stats()).toEqual({ references: 1, payments: 1, submitRequests: 5, duplicateSubmits: 4, reversals: 0 });

    const status = await rail.status(instruction.reference);
    expect(status.outcome === 'SUCCESS' && status.raw).toMatchObject({ submissions: 5 });
  });

  it('when a reference is unknown, then status() says NOT_FOUND', async () => {
    expect(await rail.status(newAckNo())).toMatchObject({ outcome: 'NOT_FOUND' });
  });

  it('when a reference comes back with another amount or account, then the answer is UNKNOWN and nothing changes', async () => {
    const instruction = imps(10000n);
    const paid = await rail.submit(instruction);
    const otherAmount = await rail.submit({ ...instruction, amountPaise: 20000n });
    const otherAccount = await rail.submit({ ...instruction, account: '999999999999' });
    const otherMode = await rail.submit({ ...instruction, mode: 'UPI', account: 'asha@okbank', ifsc: undefined });
    for (const answer of [otherAmount, otherAccount, otherMode]) {
      expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/409.*a person must/) });
    }
    expect(await rail.status(instruction.reference)).toMatchObject({ outcome: 'SUCCESS' });
    expect(paid.outcome).toBe('SUCCESS');
    expect(sim.payout(instruction.reference)).toMatchObject({ amountPaise: 10000n, account: '123456789012' });
    expect(sim.stats()).toMatchObject({ payments: 1, duplicateSubmits: 0 });
  });

  it('when an instruction is malformed, then the rail refuses it and records nothing', async () => {
    const noIfsc = imps(10000n, { ifsc: undefined });
    const answer = await rail.submit(noIfsc);
    expect(answer).toMatchObject({ outcome: 'REFUSED' });
    expect(answer.outcome === 'REFUSED' && answer.raw).toMatchObject({ errors: [{ field: 'ifsc' }] });
    expect(await rail.submit(upi(10000n, { ifsc: 'HDFC0001234' }))).toMatchObject({ outcome: 'REFUSED' });
    expect(await rail.submit(imps(0n))).toMatchObject({ outcome: 'REFUSED' });
    expect(await rail.status(noIfsc.reference)).toMatchObject({ outcome: 'NOT_FOUND' });
    expect(sim.stats().references).toBe(0);
  });

  it('when an amount is past 2^53 paise, then the bank records it to the last paisa', async () => {
    const instruction = imps(9007199254741001n);
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'SUCCESS' });
    expect(sim.payout(instruction.reference)?.amountPaise).toBe(9007199254741001n);
  });

  it('when latency is set, then every answer takes at least that long', async () => {
    await server.close();
    await rail.close();
    await start({ latencyMs: 150 });
    const startedAt = Date.now();
    await rail.status(newAckNo());
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(150);
  });

  it('when the server closes, then a held-back .33 reply is cut at once and a slow answer is sent at once', async () => {
    await server.close();
    await rail.close();
    await start({ latencyMs: 30_000 });
    const held = imps(33n);
    const slow = imps(10000n);
    const heldAnswer = rail.submit(held);
    const slowAnswer = rail.submit(slow);
    await waitFor(
      () => sim.stats().references,
      (n) => n === 2,
    );

    const closingAt = Date.now();
    await server.close();
    expect(Date.now() - closingAt).toBeLessThan(1_000);
    expect(await heldAnswer).toMatchObject({ outcome: 'UNKNOWN' });
    expect(await slowAnswer).toMatchObject({ outcome: 'SUCCESS' });
    expect(sim.payout(held.reference)).toMatchObject({ status: 'SUCCESS' });
  });
});

describe('rail simulator: real banks’ manners', () => {
  const running: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const thing of running.splice(0).reverse()) await thing.close();
  });

  async function bank(options: RailSimOptions = {}, responseTimeoutMs = 2_000) {
    const sim = createRailSim({ settleAfterMs: SETTLE_AFTER_MS, lostReplyMs: 60_000, ...options });
    const server = await sim.listen(0);
    const rail = createHttpRailAdapter({ baseUrl: server.url, connectTimeoutMs: 1_000, responseTimeoutMs });
    running.push(server, rail);
    return { sim, rail, url: server.url };
  }

  it('when the bank is strict (duplicates: refuse), then a known reference submitted again gets 400 DUPLICATE_REFERENCE and is not paid again', async () => {
    const { sim, rail } = await bank({ duplicates: 'refuse' });
    const instruction = imps(10000n);
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'SUCCESS' });
    const again = await rail.submit(instruction);
    expect(again).toMatchObject({ outcome: 'REFUSED', raw: { error: 'DUPLICATE_REFERENCE' } });
    expect(await rail.status(instruction.reference)).toMatchObject({ outcome: 'SUCCESS' });
    expect(sim.stats()).toMatchObject({ payments: 1, submitRequests: 2 });
  });

  it('when the amount ends in .88, then the bank pays, loses the reply, says NOT_FOUND for the lag, refuses the resubmit, and then shows SUCCESS', async () => {
    const { sim, rail } = await bank({ statusLagMs: 300 }, 200);
    const instruction = imps(10088n);
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'UNKNOWN' });
    expect(sim.payout(instruction.reference)).toMatchObject({ status: 'SUCCESS' });
    expect(await rail.status(instruction.reference)).toMatchObject({ outcome: 'NOT_FOUND' });
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'REFUSED', raw: { error: 'DUPLICATE_REFERENCE' } });
    const shown = await waitFor(
      () => rail.status(instruction.reference),
      (a) => a.outcome !== 'NOT_FOUND',
    );
    expect(shown).toMatchObject({ outcome: 'SUCCESS', bankReference: sim.payout(instruction.reference)!.utr });
    expect(sim.stats().payments).toBe(1);
  });

  it('when the amount ends in .66, then the payout is PENDING for the deemed-success time and SUCCESS after', async () => {
    const { rail } = await bank({ deemedSuccessMs: 300 });
    const instruction = upi(10066n);
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'PENDING' });
    expect(await rail.status(instruction.reference)).toMatchObject({ outcome: 'PENDING' });
    const decided = await waitFor(
      () => rail.status(instruction.reference),
      (a) => a.outcome !== 'PENDING',
    );
    expect(decided).toMatchObject({ outcome: 'SUCCESS', bankReference: expect.stringMatching(/^[0-9]{12}$/) });
  });

  it('when the amount ends in .99, then the payout is paid and comes back: REVERSED under the same UTR, counted once', async () => {
    const { sim, rail } = await bank({ reverseAfterMs: 200 });
    const instruction = imps(10099n);
    const paid = await rail.submit(instruction);
    expect(paid).toMatchObject({ outcome: 'SUCCESS' });
    const reversed = await waitFor(
      () => rail.status(instruction.reference),
      (a) => a.outcome === 'REVERSED',
    );
    expect(reversed).toMatchObject({ bankReference: paid.outcome === 'SUCCESS' ? paid.bankReference : 'none' });
    expect(await rail.submit(instruction)).toMatchObject({ outcome: 'REVERSED' });
    expect(sim.stats()).toMatchObject({ payments: 1, reversals: 1 });
    expect(sim.payout(instruction.reference)).toMatchObject({ status: 'REVERSED', reversedAt: expect.any(Number) });
  });

  it.each<[bigint, number, RegExp | string]>([
    [91n, 502, /502 Bad Gateway/],
    [92n, 200, /^\{"reference"/],
    [93n, 200, /"utr":"[0-9]{80}"/],
    // A NUL character in the body (toMatch with a string looks for it as it is).
    [94n, 200, '\u0000'],
  ])(
    'when the amount ends in .%i, then the bank pays but garbles the first reply (HTTP %i); the status API answers properly',
    async (paise, status, body) => {
      const { sim, rail, url } = await bank();
      const instruction = imps(10000n + paise);
      const reply = await fetch(`${url}/v1/payouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          reference: instruction.reference,
          mode: 'IMPS',
          amount_paise: instruction.amountPaise.toString(),
          account: instruction.account,
          ifsc: instruction.ifsc,
          beneficiary_name: instruction.beneficiaryName,
        }),
      });
      expect(reply.status).toBe(status);
      expect(await reply.text()).toMatch(body);
      expect(await rail.status(instruction.reference)).toMatchObject({
        outcome: 'SUCCESS',
        bankReference: sim.payout(instruction.reference)!.utr,
      });
      // Through the adapter the first reply would have been UNKNOWN, never a settlement.
      const fresh = imps(10000n + paise);
      expect(await rail.submit(fresh)).toMatchObject({ outcome: 'UNKNOWN' });
      expect(sim.stats().payments).toBe(2);
    },
  );
});

describe('rail simulator endpoints', () => {
  it('when a route is unknown or the body is not JSON, then it answers 404 or 400 with JSON', async () => {
    const sim = createRailSim();
    const server = await sim.listen(0);
    try {
      const missing = await fetch(`${server.url}/v2/nothing`);
      expect(missing.status).toBe(404);
      const bad = await fetch(`${server.url}/v1/payouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"reference":',
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: 'BAD_REQUEST' });
      const numberAmount = await fetch(`${server.url}/v1/payouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          reference: 'R1',
          mode: 'UPI',
          amount_paise: 101,
          account: 'a@b',
          beneficiary_name: 'A',
        }),
      });
      expect(numberAmount.status).toBe(400);
      expect(await numberAmount.json()).toMatchObject({ errors: [{ field: 'amount_paise' }] });
      expect(sim.stats().references).toBe(0);
    } finally {
      await server.close();
    }
  });
});
