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
    // Each file is a day of its own (its own PostgreSQL, stack and Prometheus), mostly waiting on real time:
    // they run side by side whatever the machine's cores, or their days would add up.
    fileParallelism: true,
    maxWorkers: 4,
  },
});
