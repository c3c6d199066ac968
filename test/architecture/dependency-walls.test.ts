import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The walls of .dependency-cruiser.cjs (ARCHITECTURE.md, "Map"), each shown refusing a bad import in a
// small workspace built for the test: the same layout and `@payout/x` packages as the real one, so the
// config judges it exactly as it judges ours. The real tree must pass.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

interface Cruise {
  exitCode: number;
  output: string;
}

function cruise(cwd: string, targets: string[]): Promise<Cruise> {
  return new Promise((resolve) => {
    execFile(DEPCRUISE, ['--config', CONFIG, '--output-type', 'err', ...targets], { cwd }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ exitCode, output: `${stdout}${stderr}` });
    });
  });
}

const WORKSPACE = {
  apps: ['api', 'worker'],
  packages: ['cli', 'contract', 'db', 'domain', 'queue', 'rails', 'recon'],
};

let fixture: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(fixture, path)), { recursive: true });
  await writeFile(join(fixture, path), text);
}

/** A workspace package as ours are: its `source` export is src/index.ts, reached as `@payout/<name>`. */
async function workspacePackage(dir: 'apps' | 'packages', name: string): Promise<void> {
  const exports = { '.': { source: './src/index.ts', default: './dist/index.js' } };
  await write(`${dir}/${name}/package.json`, JSON.stringify({ name: `@payout/${name}`, type: 'module', exports }));
  await write(`${dir}/${name}/src/index.ts`, `export const ${name.replace('-', '_')} = 1;\n`);
  await mkdir(join(fixture, 'node_modules/@payout'), { recursive: true });
  await symlink(join(fixture, dir, name), join(fixture, 'node_modules/@payout', name));
}

beforeAll(async () => {
  fixture = await mkdtemp(join(tmpdir(), 'dependency-walls-'));
  await write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', customConditions: ['source'] },
    }),
  );
  // An I/O library, as pnpm lays one out.
  await write('node_modules/pg/package.json', JSON.stringify({ name: 'pg', main: 'index.js' }));
  await write('node_modules/pg/index.js', 'module.exports = {};\n');
  for (const name of WORKSPACE.apps) await workspacePackage('apps', name);
  for (const name of WORKSPACE.packages) await workspacePackage('packages', name);
});

afterAll(async () => {
  await rm(fixture, { recursive: true, force: true });
});

/** Cruises the fixture with `probes` written (each path → its source), then puts back what was there. */
async function cruiseWith(probes: Record<string, string>): Promise<Cruise> {
  const before = new Map<string, string | undefined>();
  try {
    for (const [path, text] of Object.entries(probes)) {
      before.set(path, await readFile(join(fixture, path), 'utf8').catch(() => undefined));
      await write(path, text);
    }
    return await cruise(fixture, ['apps', 'packages']);
  } finally {
    for (const [path, text] of before) {
      if (text === undefined) await rm(join(fixture, path), { force: true });
      else await write(path, text);
    }
  }
}

describe('the dependency walls', () => {
  it('when nothing crosses a wall, then the fixture workspace passes (so each refusal below is the probe’s)', async () => {
    const clean = await cruiseWith({
      'apps/api/src/uses-packages.ts': "import '@payout/db';\nimport '@payout/contract';\n",
      'packages/contract/src/uses-domain.ts': "import '@payout/domain';\n",
      'packages/recon/src/uses-domain.ts': "import '@payout/domain';\n",
      'packages/queue/src/a.ts': "import './b.js';\n",
      'packages/queue/src/b.ts': "import './a.js';\n",
    });
    expect(clean.output).toContain('no dependency violations found');
    expect(clean.exitCode).toBe(0);
  });

  it.each([
    ['no-app-imports-another-app', { 'apps/worker/src/probe.ts': "import '@payout/api';\n" }],
    ['no-app-imports-another-app', { 'apps/api/src/probe.ts': "import '../../worker/src/index.js';\n" }],
    ['no-package-imports-an-app', { 'packages/cli/src/probe.ts': "import '@payout/api';\n" }],
    ['domain-imports-no-workspace-package', { 'packages/domain/src/probe.ts': "import '@payout/db';\n" }],
    ['domain-imports-no-io-library', { 'packages/domain/src/probe.ts': "import 'pg';\n" }],
    ['domain-imports-no-io-library', { 'packages/domain/src/probe.ts': "import 'node:fs';\n" }],
    ['contract-imports-only-domain', { 'packages/contract/src/probe.ts': "import '@payout/db';\n" }],
    ['recon-imports-only-domain', { 'packages/recon/src/probe.ts': "import '@payout/db';\n" }],
    ['recon-imports-no-io-library', { 'packages/recon/src/probe.ts': "import 'node:fs/promises';\n" }],
    [
      'no-circular-packages',
      {
        'packages/queue/src/probe.ts': "import '@payout/rails';\n",
        'packages/rails/src/index.ts': "import '@payout/queue';\nexport const rails = 1;\n",
        'packages/queue/src/index.ts': "import './probe.js';\nexport const queue = 1;\n",
      },
    ],
    ['not-to-unresolvable', { 'packages/db/src/probe.ts': "import './nowhere.js';\n" }],
  ])('when a file breaks %s, then depcruise fails naming that rule', async (rule, probes) => {
    const result = await cruiseWith(probes);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain(rule);
  });

  it('when a test file starts another app, then the app walls let it', async () => {
    const result = await cruiseWith({ 'apps/worker/src/probe.test.ts': "import '@payout/api';\n" });
    expect(result.exitCode).toBe(0);
  });

  it('when the real workspace is cruised, then no wall is crossed', { timeout: 120_000 }, async () => {
    const result = await cruise(ROOT, ['apps', 'packages', 'scripts', 'bench']);
    expect(result.output).toContain('no dependency violations found');
    expect(result.exitCode).toBe(0);
  });
});
