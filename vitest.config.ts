import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources, as under tsx with --conditions=source. Vite's
// export-condition support does not reach globalSetup and setupFiles reliably, so each package is aliased.
const workspaceSources = Object.fromEntries(
  ['apps', 'packages'].flatMap((dir) =>
    readdirSync(new URL(`./${dir}/`, import.meta.url)).map((name) => [
      `@payout/${name}`,
      fileURLToPath(new URL(`./${dir}/${name}/src/index.ts`, import.meta.url)),
    ]),
  ),
);

export default defineConfig({
  resolve: { alias: workspaceSources },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/test-env.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A failure is a failure: no retries to hide flakiness.
    retry: 0,
  },
});
