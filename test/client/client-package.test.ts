import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// packages/client is what a merchant installs: it must stand alone (no server package, no runtime
// dependency), use only the web platform (fetch, Web Crypto), and work as compiled JavaScript on plain Node.

const run = promisify(execFile);
const CLIENT = fileURLToPath(new URL('../../packages/client/', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

describe('packages/client as a package of its own', () => {
  let outDir: string;
  beforeAll(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'payout-client-'));
  });
  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('when its manifest is read, then it has no dependencies at all, so none on the server', async () => {
    const manifest = JSON.parse(await readFile(path.join(CLIENT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.private).toBeUndefined();
  });

  it('when its sources are read, then they import only each other: no node: module, no package', async () => {
    const imports: string[] = [];
    for (const file of await sourceFiles(path.join(CLIENT, 'src'))) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'/g))
        imports.push(match[1] ?? match[2]!);
    }
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((specifier) => !specifier.startsWith('./'))).toEqual([]);
  });

  it('when compiled against the web platform only (no Node types) and run by plain node, then it works', async () => {
    // tsconfig.build.json has lib ES2022 + DOM and no @types/node: a Node-only API would not compile.
    await run(process.execPath, [TSC, '-p', path.join(CLIENT, 'tsconfig.build.json'), '--outDir', outDir]);

    const body =
      '{"status":"SUCCESS","Amount":101.00,"Ack_no":"01KAKX3T5QH4Z8M2N6PR","TransactionID":12345678901234567890123}';
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', 'whsec_x').update(`${t}.${body}`).digest('hex')}`;
    const script = `
      const client = await import(${JSON.stringify(path.join(outDir, 'index.js'))});
      const verified = await client.verifyWebhook({
        rawBody: ${JSON.stringify(body)},
        headers: new Headers({ 'X-Webhook-Signature': ${JSON.stringify(signature)} }),
        secret: 'whsec_x',
      });
      console.log(JSON.stringify({ ok: verified.ok, payout: verified.event.payout, paise: String(client.paiseFromRupees('101.5')) }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir() });
    expect(JSON.parse(stdout)).toEqual({
      ok: true,
      payout: {
        status: 'SUCCESS',
        Amount: '101.00',
        Ack_no: '01KAKX3T5QH4Z8M2N6PR',
        TransactionID: '12345678901234567890123',
      },
      paise: '10150',
    });
  });
});
