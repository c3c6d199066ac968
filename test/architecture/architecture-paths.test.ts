import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md is the map a new maintainer starts from: every file or folder it names must be where it
// says, or the first hour is spent hunting. A path is any `code span` that begins with one of the repository's
// own top-level folders; spans that stand for many paths (`<name>`, `*`, `…`) name a pattern, not a file.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAP = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

const TOP_LEVEL = new Set(
  readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git')
    .map((entry) => entry.name),
);

/** The repository paths a text names in code spans, each once, in the order they first appear. */
function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!.trim());
  const paths = spans.filter(
    (span) => !/[\s<>*…]/.test(span) && span.includes('/') && TOP_LEVEL.has(span.slice(0, span.indexOf('/')).trim()),
  );
  return [...new Set(paths)];
}

describe('ARCHITECTURE.md', () => {
  const paths = namedPaths(MAP);

  it('names the repository by its paths', () => {
    // A sanity floor: a change to how paths are written that hid them all from this test would pass it empty.
    expect(paths.length).toBeGreaterThan(150);
    expect(paths).toContain('packages/domain/src/payout-transitions.ts');
    expect(paths).toContain('packages/rails/src/rail-factory.ts');
  });

  it('names only paths that exist', () => {
    const missing = paths.filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it('reads a path out of a code span, and a pattern or a command is not one', () => {
    expect(
      namedPaths(
        [
          'see `packages/db/src/client.ts` and `apps/api`, not `packages/db/sql/functions/<name>.sql`,',
          '`packages/*`, `pnpm cli recon statement` or `nowhere/at-all.ts`',
        ].join(' '),
      ),
    ).toEqual(['packages/db/src/client.ts', 'apps/api']);
  });
});
