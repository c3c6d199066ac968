import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';

// The README promises that `pnpm start` leaves a newcomer one copy-paste away from a first payout. This runs
// the launcher itself (scripts/start.ts, as `pnpm start` does after migrating) on free ports against this
// file's database, then runs the very commands it printed, through a shell, as a person would.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function shell(command: string): Promise<Record<string, unknown>> {
  const { stdout } = await run('sh', ['-c', command]);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('pnpm start in development', () => {
  let launcher: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    const [api, health, rail] = [await freePort(), await freePort(), await freePort()];
    launcher = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'scripts/start.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        PORT: String(api),
        HEALTH_PORT: String(health),
        RAIL_SIM_PORT: String(rail),
        RAIL_BASE_URL: `http://127.0.0.1:${rail}`,
        RAIL_SIM_SETTLE_AFTER_MS: '200',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((resolve) => launcher.once('exit', (code) => resolve(code)));
    const ready = new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('─── Ready')) resolve();
      };
      launcher.stdout!.on('data', collect);
      launcher.stderr!.on('data', collect);
      void exited.then((code) => reject(new Error(`the launcher exited (${code}) before it was ready:\n${output}`)));
    });
    await ready;
  }, 60_000);

  afterAll(async () => {
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  function printed(marker: string): string {
    const line = output.split('\n').find((l) => l.includes(marker));
    if (!line) throw new Error(`the launcher printed no line with "${marker}":\n${output}`);
    return line.trim().replace(/^The wallet: /, '');
  }

  it('when the printed payout command is run, then it answers 202 and the printed status command sees it settle', async () => {
    expect(output).toMatch(/Demo merchant \(development only\): MID DEMO01, main wallet ₹10000\.00/);

    const accepted = await shell(printed('curl -s -X POST'));
    expect(accepted).toMatchObject({ error: false, status_code: 202, status: 'PENDING', Amount: '101.00' });

    const settled = await eventually(
      () => shell(printed('check_payout_status')),
      (status) => status.status !== 'Pending',
      { timeoutMs: 20_000, what: 'the demo payout to settle' },
    );
    expect(settled).toMatchObject({ status: 'Success', TransactionID: accepted.TransactionID });
    expect(settled.Bankriff).toMatch(/^\d+$/);
    expect(await shell(printed('checkMainWallet'))).toMatchObject({ status_code: 200, mainwallet: '9899.00' });
  });

  it('when the apps log, then the launcher passes their JSON through with LOG_FORMAT=json', () => {
    const apiLines = output.split('\n').filter((line) => line.includes('| {') && line.includes('"app":"api"'));
    expect(apiLines.length).toBeGreaterThan(0);
    for (const line of apiLines) expect(() => JSON.parse(line.slice(line.indexOf('| {') + 2)) as unknown).not.toThrow();
  });
});
