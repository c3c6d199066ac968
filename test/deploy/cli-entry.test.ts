import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The image's operator CLI (docs/operations.md, "Alerts: what each means and what to do"): runbooks say
// `deploy/ops.sh …`, which runs `payout-cli …` in a pod of the ops template, so the image must put the compiled
// CLI on PATH under that name. This builds the CLI and the packages it imports as the image's build does (`pnpm build`,
// filtered to them), then runs the entry the image links from that output, as the pod would.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const cliPackage = JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')) as {
  bin?: Record<string, string>;
};
const entry = path.join(ROOT, 'packages/cli', cliPackage.bin?.['payout-cli'] ?? 'no bin named payout-cli');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const pnpmVersion = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { packageManager: string }
).packageManager.split('@')[1]!;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'payout-cli-'));
  // Built here, so the README's test command needs no build before it and never runs an old output.
  await run('npx', ['-y', `pnpm@${pnpmVersion}`, '--filter', '@payout/cli...', 'run', 'build'], {
    cwd: ROOT,
    timeout: 240_000,
  });
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the image runs the CLI as payout-cli', () => {
  it('when the image is built, then it links the CLI package’s bin onto PATH as payout-cli', () => {
    const inImage = `/app/${path.relative(ROOT, entry)}`;
    expect(cliPackage.bin).toEqual({ 'payout-cli': './bin/payout-cli.js' });
    expect(dockerfile).toContain(`ln -s ${inImage} /usr/local/bin/payout-cli`);
    // The link is made in the final stage, before it drops to the unprivileged user.
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(finalStage.indexOf('/usr/local/bin/payout-cli')).toBeGreaterThan(-1);
    expect(finalStage.indexOf('/usr/local/bin/payout-cli')).toBeLessThan(finalStage.indexOf('USER node'));
  });

  it('when payout-cli --help runs from the built output, then it lists the runbooks’ commands', async () => {
    expect(existsSync(path.join(ROOT, 'packages/cli/dist/main.js')), 'packages/cli/dist was built').toBe(true);
    // By its short name, through a link, as on the image's PATH: the shebang and the relative import must hold.
    const linked = path.join(dir, 'payout-cli');
    await symlink(entry, linked);
    // With only what a worker pod has (deploy/kubernetes: its ConfigMaps, DATABASE_URL and REDIS_URL), in
    // production, with no credential file: --help opens no connection.
    const workerPod = {
      PATH: process.env.PATH,
      HOME: dir,
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://payouts@127.0.0.1:5432/payouts',
      REDIS_URL: 'redis://127.0.0.1:6379',
    };
    const { stdout } = await run(linked, ['--help'], { cwd: dir, env: workerPod, timeout: 20_000 });
    for (const command of ['reconcile', 'payout', 'discrepancy', 'webhook', 'login'])
      expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });
});
