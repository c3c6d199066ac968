import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

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
    // The long tests (`*.long.test.ts`) run in real time for many minutes, mostly waiting: `pnpm test:long`
    // runs them with vitest.long.config.ts, beside this suite (README; CI starts both).
    exclude: [...configDefaults.exclude, '**/*.long.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/test-env.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A failure is a failure: no retries to hide flakiness.
    retry: 0,
  },
});
