import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A merchant gets the client as a tarball, not from the npm registry (packages/client/README.md, "Install";
// docs/client.md, "Publishing"): `pnpm --filter @payout/client pack` must compile it and pack what runs, and
// `npm install ./payout-client-<version>.tgz` in a project of their own must give them a working package.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT = path.join(ROOT, 'packages/client');

async function manifest(dir: string): Promise<{ version: string; license: string; packageManager?: string }> {
  return JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as never;
}

describe('the client tarball a merchant installs', () => {
  let dir: string;
  let tarball: string;
  let version: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'payout-client-tarball-'));
    version = (await manifest(CLIENT)).version;
    const pnpm = `pnpm@${(await manifest(ROOT)).packageManager!.split('@')[1]!}`;
    // --pack-destination: the tarball goes to this test's directory, not the checkout shared by other runs.
    await run('npx', ['-y', pnpm, '--filter', '@payout/client', 'pack', '--pack-destination', dir], { cwd: ROOT });
    tarball = path.join(dir, `payout-client-${version}.tgz`);
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when packed, then it holds the compiled client, its types and its licence, and no tests', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');

    expect(files).toEqual(
      expect.arrayContaining([
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/LICENSE',
        'package/README.md',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.test.ts') || f.endsWith('.test.js'))).toEqual([]);
    expect((await manifest(CLIENT)).license).toBe('MIT');
  });

  it('when installed with npm into an empty project, then plain node imports it and it works', async () => {
    const project = path.join(dir, 'merchant');
    await mkdir(project);
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'merchant', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', `../payout-client-${version}.tgz`], { cwd: project });

    const script = `
      import { PayoutClient, paiseFromRupees } from '@payout/client';
      console.log(JSON.stringify({ client: typeof PayoutClient, paise: String(paiseFromRupees('101.5')) }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });

    expect(JSON.parse(stdout)).toEqual({ client: 'function', paise: '10150' });
    expect((await manifest(path.join(project, 'node_modules/@payout/client'))).version).toBe(version);
  }, 60_000);

  it("when the README says how to install it, then it names this version's tarball", async () => {
    const readme = await readFile(path.join(CLIENT, 'README.md'), 'utf8');

    expect(readme).toContain(`npm install ./payout-client-${version}.tgz`);
  });
});
