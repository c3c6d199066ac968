import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type VerifyWebhook = (
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string,
  toleranceSeconds?: number,
  nowSeconds?: number,
) => boolean;

const DOCS = fileURLToPath(new URL('../../docs/webhooks.md', import.meta.url));
const MARKER = '<!-- verify-webhook snippet: test/webhooks/documented-verifier.ts runs this very code -->';

/**
 * The verification snippet of docs/webhooks.md, loaded and run as merchants would copy it: the tests verify
 * every delivery with it, so the documentation cannot drift from what the worker sends.
 */
export async function documentedVerifier(): Promise<VerifyWebhook> {
  const docs = await readFile(DOCS, 'utf8');
  const at = docs.indexOf(MARKER);
  if (at < 0) throw new Error('docs/webhooks.md lost its verification snippet marker');
  const block = /```js\n([\s\S]*?)```/.exec(docs.slice(at));
  if (!block) throw new Error('no ```js block after the marker in docs/webhooks.md');
  const dir = await mkdtemp(path.join(tmpdir(), 'webhook-snippet-'));
  const file = path.join(dir, 'verify-webhook.mjs');
  await writeFile(file, block[1]!);
  let module: { verifyWebhook?: VerifyWebhook };
  try {
    module = (await import(pathToFileURL(file).href)) as { verifyWebhook?: VerifyWebhook };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (typeof module.verifyWebhook !== 'function') throw new Error('the snippet must export verifyWebhook');
  return module.verifyWebhook;
}
