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
  let api: number, health: number, primary: number, secondary: number;

  beforeAll(async () => {
    [api, health, primary, secondary] = [await freePort(), await freePort(), await freePort(), await freePort()];
    launcher = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'scripts/start.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        PORT: String(api),
        HEALTH_PORT: String(health),
        // Two banks as by default, on free ports; the launcher derives BANKS from them.
        RAIL_SIM_BANKS: `primary:${primary},secondary:${secondary}`,
        BANKS: '',
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

    // The payout was paid once, by one of the two banks the worker was given.
    const payments = await Promise.all(
      [primary, secondary].map(async (port) => {
        const stats = (await (await fetch(`http://127.0.0.1:${port}/v1/stats`)).json()) as { payments: number };
        return stats.payments;
      }),
    );
    expect(payments.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('when started, then two simulated banks answer, each on its port with its own account, and the launcher says which', async () => {
    expect(printed('Banks (rail simulator)')).toBe(
      `Banks (rail simulator): primary http://127.0.0.1:${primary} (account 50200012345678), ` +
        `secondary http://127.0.0.1:${secondary} (account 50200012345679)`,
    );
    for (const port of [primary, secondary]) {
      const listed = (await (await fetch(`http://127.0.0.1:${port}/sim/banks`)).json()) as { banks: unknown[] };
      expect(listed.banks).toEqual([
        expect.objectContaining({ name: 'primary', url: `http://127.0.0.1:${primary}`, account: '50200012345678' }),
        expect.objectContaining({ name: 'secondary', url: `http://127.0.0.1:${secondary}`, account: '50200012345679' }),
      ]);
    }
    const statement = await (await fetch(`http://127.0.0.1:${secondary}/v1/statement?format=mt940`)).text();
    expect(statement).toContain(':25:SIMB0000002/50200012345679');
  });

  it('when started, then it prints the dashboard and the enroll page the demo owner starts from, both answering', async () => {
    expect(printed('The merchant dashboard:')).toBe(
      `The merchant dashboard: http://127.0.0.1:${api}/dashboard (its owner, owner@demo-merchant.example, has not enrolled yet)`,
    );
    const signIn = await fetch(`http://127.0.0.1:${api}/dashboard`, { redirect: 'manual' });
    expect([signIn.status, signIn.headers.get('location')]).toEqual([303, '/dashboard/login']);
    const enroll = await fetch(`http://127.0.0.1:${api}/dashboard/enroll`);
    expect(enroll.status).toBe(200);
    expect(await enroll.text()).toContain('name="email"');
    expect(printed('pnpm cli merchant owner-enroll')).toBe(
      'pnpm cli merchant owner-enroll --mid DEMO01 --email owner@demo-merchant.example --fingerprint <fingerprint>',
    );
  });

  it('when the apps log, then the launcher passes their JSON through with LOG_FORMAT=json', () => {
    const apiLines = output.split('\n').filter((line) => line.includes('| {') && line.includes('"app":"api"'));
    expect(apiLines.length).toBeGreaterThan(0);
    for (const line of apiLines) expect(() => JSON.parse(line.slice(line.indexOf('| {') + 2)) as unknown).not.toThrow();
  });
});
