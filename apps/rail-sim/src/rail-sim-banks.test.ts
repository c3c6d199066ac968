import { createHttpRailAdapter, type PayoutInstruction, type RailAdapter } from '@payout/rails';
import { afterEach, describe, expect, it } from 'vitest';
import { createRailSim, settlementAccountOf, type RailSim, type RailSimOptions, type RailSimServer } from './index.js';
import { impsInstruction, upiInstruction } from './test-instructions.js';

// Several simulated banks in one process, each with its own book, statement account and faults
// (docs/rail-sim.md, "Several banks" and "Faults"), seen as the worker sees them: over HTTP.

interface Bank {
  sim: RailSim;
  server: RailSimServer;
  rail: RailAdapter;
}

const started: Bank[] = [];

async function banks(...options: (RailSimOptions & { name: string })[]): Promise<Bank[]> {
  const sims = options.map((o, i) =>
    createRailSim({
      account: settlementAccountOf({ account: `5020001234567${8 + i}`, ifsc: `SIMB000000${i + 1}` }),
      ...o,
    }),
  );
  const servers = await Promise.all(sims.map((sim) => sim.listen(0, '127.0.0.1', sims)));
  const made = sims.map((sim, i) => ({
    sim,
    server: servers[i]!,
    rail: createHttpRailAdapter({ baseUrl: servers[i]!.url, connectTimeoutMs: 1_000, responseTimeoutMs: 5_000 }),
  }));
  started.push(...made);
  return made;
}

afterEach(async () => {
  for (const bank of started.splice(0)) {
    await bank.rail.close();
    await bank.server.close();
  }
});

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

function submitRaw(bank: Bank, instruction: PayoutInstruction): Promise<Response> {
  return fetch(`${bank.server.url}/v1/payouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      reference: instruction.reference,
      mode: instruction.mode,
      amount_paise: instruction.amountPaise.toString(),
      account: instruction.account,
      ...(instruction.ifsc && { ifsc: instruction.ifsc }),
      beneficiary_name: instruction.beneficiaryName,
    }),
  });
}

/** Bounded: the port of a bank coming back opens a moment after the switch is answered. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const answers = (url: string) =>
  fetch(`${url}/v1/payouts/NOSUCHREFERENCE`).then(
    () => true,
    () => false,
  );

describe('several simulated banks in one process', () => {
  it('when each bank is paid, then each book, journal of payments and statement is its own, on its own account', async () => {
    const [primary, secondary] = await banks({ name: 'primary' }, { name: 'secondary' });
    const first = impsInstruction(10150n);
    const second = upiInstruction(20250n);
    expect(await primary!.rail.submit(first)).toMatchObject({ outcome: 'SUCCESS' });
    expect(await secondary!.rail.submit(second)).toMatchObject({ outcome: 'SUCCESS' });
    expect(await secondary!.rail.status(first.reference)).toMatchObject({ outcome: 'NOT_FOUND' });

    expect(primary!.sim.payouts().map((p) => p.reference)).toEqual([first.reference]);
    expect(secondary!.sim.payouts().map((p) => p.reference)).toEqual([second.reference]);
    const statement = (bank: Bank) =>
      fetch(`${bank.server.url}/v1/statement?format=mt940`).then((response) => response.text());
    const [a, b] = [await statement(primary!), await statement(secondary!)];
    expect(a).toContain(':25:SIMB0000001/50200012345678');
    expect(a).toContain(first.reference);
    expect(a).not.toContain(second.reference);
    expect(b).toContain(':25:SIMB0000002/50200012345679');
    expect(b).toContain(second.reference);
  });

  it('when the magic values are used at either bank, then each bank keeps them', async () => {
    const [primary, secondary] = await banks({ name: 'primary' }, { name: 'secondary' });
    for (const bank of [primary!, secondary!]) {
      expect(await bank.rail.submit(impsInstruction(50011n))).toMatchObject({
        outcome: 'FAILED',
        reason: 'DECLINED_BY_BENEFICIARY_BANK',
      });
    }
  });

  it('when one bank is switched down, then it answers 503 to every call and records nothing, while the other pays', async () => {
    const [primary, secondary] = await banks({ name: 'primary' }, { name: 'secondary' });
    const switched = await post(`${primary!.server.url}/sim/faults`, { down: true });
    expect(switched).toMatchObject({ status: 200, json: { bank: 'primary', now: { down: 'unavailable' } } });

    const instruction = impsInstruction(10150n);
    const refused = await submitRaw(primary!, instruction);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: 'UNAVAILABLE' });
    expect((await fetch(`${primary!.server.url}/v1/payouts/${instruction.reference}`)).status).toBe(503);
    expect(primary!.sim.stats()).toMatchObject({ references: 0, submitRequests: 0 });
    // The simulator's own routes still answer.
    expect((await fetch(`${primary!.server.url}/health`)).status).toBe(200);

    expect(await secondary!.rail.submit(instruction)).toMatchObject({ outcome: 'SUCCESS' });

    await post(`${primary!.server.url}/sim/faults`, {});
    expect(await primary!.rail.submit(impsInstruction(10150n))).toMatchObject({ outcome: 'SUCCESS' });
  });

  it('when a bank refuses connections, then its port is closed until it is switched back through another bank', async () => {
    const [primary, secondary] = await banks({ name: 'primary' }, { name: 'secondary' });
    const switched = await post(`${secondary!.server.url}/sim/banks/primary/faults`, { down: 'refused' });
    expect(switched).toMatchObject({ status: 200, json: { bank: 'primary', now: { down: 'refused' } } });
    await until(async () => !(await answers(primary!.server.url)), 'the port closing');
    const answer = await primary!.rail.submit(impsInstruction(10150n));
    expect(answer).toMatchObject({ outcome: 'UNKNOWN', detail: expect.stringMatching(/ECONNREFUSED/) as unknown });

    const listed = await fetch(`${secondary!.server.url}/sim/banks`).then((r) => r.json());
    expect(listed).toEqual({
      banks: [
        expect.objectContaining({
          name: 'primary',
          account: '50200012345678',
          faults: expect.objectContaining({ down: 'refused' }),
        }),
        expect.objectContaining({
          name: 'secondary',
          account: '50200012345679',
          faults: expect.objectContaining({ down: false }),
        }),
      ],
    });

    await post(`${secondary!.server.url}/sim/banks/primary/faults`, {});
    await until(() => answers(primary!.server.url), 'the port opening again');
    expect(await primary!.rail.submit(impsInstruction(10150n))).toMatchObject({ outcome: 'SUCCESS' });
  });

  it('when a scheduled down window ends, then the bank comes back by itself', async () => {
    const createdAt = Date.now();
    const [primary] = await banks({ name: 'primary', faults: [{ atMs: 0, forMs: 400, down: 'refused' }] });
    expect(await answers(primary!.server.url)).toBe(false);
    await until(() => answers(primary!.server.url), 'the scheduled window ending');
    expect(Date.now() - createdAt).toBeGreaterThanOrEqual(400);
    expect(primary!.sim.faults().down).toBe(false);
    expect(await primary!.rail.submit(impsInstruction(10150n))).toMatchObject({ outcome: 'SUCCESS' });
  });

  it('when a switch has a length, then the bank is down for that long and answers again after', async () => {
    const [primary] = await banks({ name: 'primary' });
    await post(`${primary!.server.url}/sim/faults`, { down: true, forMs: 300 });
    expect((await submitRaw(primary!, impsInstruction(10150n))).status).toBe(503);
    await until(
      async () => (await submitRaw(primary!, impsInstruction(10150n))).status === 200,
      'the switch running out',
    );
    expect(primary!.sim.faultReport().runTime).toBeNull();
  });

  it('when a bank is slow, then every answer of its API waits the added latency, and its own routes do not', async () => {
    const [primary] = await banks({ name: 'primary' });
    await post(`${primary!.server.url}/sim/faults`, { latencyMs: 300 });
    const before = Date.now();
    expect(await primary!.rail.submit(impsInstruction(10150n))).toMatchObject({ outcome: 'SUCCESS' });
    expect(Date.now() - before).toBeGreaterThanOrEqual(290);
    const health = Date.now();
    await fetch(`${primary!.server.url}/health`);
    expect(Date.now() - health).toBeLessThan(250);
  });

  it('when a bank fails every call with a 5xx, then nothing is recorded, and the burst ends when switched off', async () => {
    const [primary] = await banks({ name: 'primary' });
    await post(`${primary!.server.url}/sim/faults`, { errorRate: 1, errorStatus: 502 });
    const instruction = impsInstruction(10150n);
    for (let i = 0; i < 3; i++) expect((await submitRaw(primary!, instruction)).status).toBe(502);
    expect(primary!.sim.stats()).toMatchObject({ references: 0, submitRequests: 0 });
    await post(`${primary!.server.url}/sim/faults`, { errorRate: 0 });
    expect(await primary!.rail.submit(instruction)).toMatchObject({ outcome: 'SUCCESS' });
  });

  it('when a share of calls fail, then the draw decides which', async () => {
    const draws = [0.1, 0.9, 0.1, 0.9];
    const [primary] = await banks({ name: 'primary', random: () => draws.shift() ?? 0.9 });
    await post(`${primary!.server.url}/sim/faults`, { errorRate: 0.5 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await submitRaw(primary!, impsInstruction(10150n))).status);
    expect(statuses).toEqual([500, 200, 500, 200]);
  });

  it('when the status API lags, then a fresh reference is NOT_FOUND for the lag, then shows as paid', async () => {
    const [primary] = await banks({ name: 'primary' });
    await post(`${primary!.server.url}/sim/faults`, { statusLagMs: 400 });
    const instruction = impsInstruction(10150n);
    expect(await primary!.rail.submit(instruction)).toMatchObject({ outcome: 'SUCCESS' });
    expect(await primary!.rail.status(instruction.reference)).toMatchObject({ outcome: 'NOT_FOUND' });
    await until(
      async () => (await primary!.rail.status(instruction.reference)).outcome === 'SUCCESS',
      'the status API catching up',
    );
  });

  it('when a switch is malformed or names no bank, then it is refused and nothing changes', async () => {
    const [primary] = await banks({ name: 'primary' });
    expect(await post(`${primary!.server.url}/sim/faults`, { down: 'sometimes' })).toMatchObject({
      status: 400,
      json: { error: 'BAD_REQUEST' },
    });
    expect(await post(`${primary!.server.url}/sim/faults`, { errorRate: 2 })).toMatchObject({ status: 400 });
    expect(await post(`${primary!.server.url}/sim/banks/tertiary/faults`, { down: true })).toMatchObject({
      status: 404,
    });
    expect(primary!.sim.faults().down).toBe(false);
  });
});
