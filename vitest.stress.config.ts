import { defineConfig } from 'vitest/config';

// Tests that need more than a minute or a quiet machine (floods, timing comparisons, kill -9 loops).
// `npm run test:stress` runs them; .ci/run runs them after `npm test`.
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    pool: 'forks',
    // One file at a time: these tests measure or saturate the machine.
    fileParallelism: false,
    passWithNoTests: true,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
