import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpRailAdapter, type RailAdapter } from '@payout/rails';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRailSim, StateFileError, type RailSim, type RailSimServer } from './index.js';
import { impsInstruction } from './test-instructions.js';

const imps = impsInstruction;

describe('rail simulator state file', () => {
  let dir: string;
  let stateFile: string;
  const running: { close(): Promise<void> }[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rail-sim-'));
    stateFile = join(dir, 'nested', 'state.jsonl');
  });

  afterEach(async () => {
    for (const thing of running.splice(0).reverse()) await thing.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function boot(settleAfterMs = 2_000): Promise<{ sim: RailSim; server: RailSimServer; rail: RailAdapter }> {
    const sim = createRailSim({ stateFile, settleAfterMs });
    const server = await sim.listen(0);
    const rail = createHttpRailAdapter({ baseUrl: server.url, connectTimeoutMs: 1_000, responseTimeoutMs: 5_000 });
    running.push(server, rail);
    return { sim, server, rail };
  }

  it('when a payment is answered SUCCESS, then it is already in the file', async () => {
    const { rail } = await boot();
    const instruction = imps(10000n);
    const answer = await rail.submit(instruction);
    const lines = readFileSync(stateFile, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toContainEqual(
      expect.objectContaining({
        reference: instruction.reference,
        amount_paise: '10000',
        status: 'SUCCESS',
        utr: answer.outcome === 'SUCCESS' ? answer.bankReference : 'no UTR',
      }),
    );
  });

  it('when the simulator restarts on the same file, then it remembers every reference and pays none twice', async () => {
    const first = await boot();
    const paid = imps(10000n);
    const declined = imps(10011n);
    const paidAnswer = await first.rail.submit(paid);
    await first.rail.submit(paid);
    await first.rail.submit(declined);
    await first.rail.close();
    await first.server.close();

    const second = await boot();
    expect(second.sim.stats()).toMatchObject({ references: 2, payments: 1 });
    expect(await second.rail.status(paid.reference)).toEqual({ ...paidAnswer, raw: expect.anything() });
    const again = await second.rail.submit(paid);
    expect(again.outcome === 'SUCCESS' && again.bankReference).toBe(
      paidAnswer.outcome === 'SUCCESS' && paidAnswer.bankReference,
    );
    expect(await second.rail.submit(declined)).toMatchObject({ outcome: 'FAILED' });
    expect(second.sim.stats()).toMatchObject({ references: 2, payments: 1, duplicateSubmits: 2 });
    expect(second.sim.payout(paid.reference)).toMatchObject({ amountPaise: 10000n, submissions: 3 });
  });

  it('when a .22 payout was pending at the restart, then the new simulator settles it on time', async () => {
    const first = await boot(100);
    const pending = imps(722n);
    expect(await first.rail.submit(pending)).toMatchObject({ outcome: 'PENDING' });
    await first.rail.close();
    await first.server.close();

    const second = await boot(60_000);
    const deadline = Date.now() + 5_000;
    let status = await second.rail.status(pending.reference);
    while (status.outcome === 'PENDING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await second.rail.status(pending.reference);
    }
    expect(status).toMatchObject({ outcome: 'SUCCESS' });
    expect(second.sim.stats().payments).toBe(1);
  });

  it('when the last line was cut short by a crash, then it is dropped and the file stays usable', async () => {
    const first = await boot();
    const paid = imps(10000n);
    await first.rail.submit(paid);
    await first.rail.close();
    await first.server.close();
    appendFileSync(stateFile, '{"reference":"HALFWRITTEN","mo');

    const second = await boot();
    expect(second.sim.stats().references).toBe(1);
    await second.rail.submit(imps(20000n));
    const lines = readFileSync(stateFile, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { reference: string }).reference)).not.toContain('HALFWRITTEN');
    expect(lines).toHaveLength(2);
  });

  it('when a line in the middle is corrupt, then the simulator refuses to start', () => {
    const corrupt = join(dir, 'corrupt.jsonl');
    writeFileSync(corrupt, 'not json\n{}\n');
    expect(() => createRailSim({ stateFile: corrupt })).toThrow(StateFileError);
    expect(() => createRailSim({ stateFile: corrupt })).toThrow(/corrupt\.jsonl:1: not JSON/);
  });
});
