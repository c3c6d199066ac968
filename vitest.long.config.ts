import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The long tests (`*.long.test.ts`): each runs in real time for many minutes — alert rules with their shipped
// `for:` durations — mostly waiting. `pnpm test:long` runs them in a Vitest of their own, which CI starts in
// the background beside `pnpm test` (README, .ci/run), so they never hold one of the few workers a small
// machine gives the rest of the suite.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/**/*.long.test.ts'],
    exclude: configDefaults.exclude,
    testTimeout: 30 * 60_000,
  },
});
