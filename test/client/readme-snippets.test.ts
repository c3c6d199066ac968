import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every TypeScript example in packages/client/README.md compiles against the client as it is, so the
// merchant's documentation cannot drift from the API it documents.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = path.join(ROOT, 'packages/client/README.md');
const requireFromApi = createRequire(path.join(ROOT, 'apps/api/package.json'));

// The names the examples use without defining them: the merchant's own code around the examples.
const MERCHANT_CODE = `
declare const payouts: import('@payout/client').PayoutClient;
declare const transactionId: string;
declare const signal: AbortSignal;
declare const myFetch: typeof fetch;
declare function markPaid(transactionId: string, bankReference: string): void;
declare function markFailed(transactionId: string, reason: string): void;
declare function applyPayoutResult(event: import('@payout/client').WebhookEvent): Promise<void>;
declare const process: { env: Record<string, string | undefined> };
`;

describe('packages/client/README.md', () => {
  it('when its TypeScript examples are compiled against the client, then none has an error', async () => {
    const readme = await readFile(README, 'utf8');
    const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(snippets.length).toBeGreaterThanOrEqual(5);

    const dir = await mkdtemp(path.join(tmpdir(), 'client-readme-'));
    try {
      const files = await Promise.all(
        snippets.map(async (code, i) => {
          const file = path.join(dir, `snippet-${i + 1}.mts`);
          await writeFile(file, `${code}\nexport {};\n`);
          return file;
        }),
      );
      const globals = path.join(dir, 'merchant-code.d.ts');
      await writeFile(globals, MERCHANT_CODE);

      const program = ts.createProgram([...files, globals], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: [],
        skipLibCheck: true,
        esModuleInterop: true,
        allowImportingTsExtensions: true,
        paths: {
          '@payout/client': [path.join(ROOT, 'packages/client/src/index.ts')],
          express: [requireFromApi.resolve('@types/express/index.d.ts')],
        },
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => {
        const where = d.file
          ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
          : '';
        return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
      expect(problems).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
