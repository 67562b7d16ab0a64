import { defineConfig } from 'vitest/config';
import { browserTestFiles } from './vitest.browser-files.js';

// Every test of the default and process suites: `npx vitest run` runs both, and `npx vitest run
// two-factor` finds every file of a feature in either. `npm test` runs the in-process part
// (vitest.in-process.config.ts), `npm run test:process` the files that start the built binary
// (vitest.process.config.ts); docs/testing.md, "What runs where".
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The browser suite (Chromium end to end) is its own command: `npm run test:browser`.
    exclude: ['test/stress/**', 'test/bench/**', 'node_modules/**', ...browserTestFiles()],
    // Files run in worker processes (signals and native modules behave as in production), and a
    // worker runs file after file without loading the modules again (isolate: false; ~50 s less on 2
    // cores). Each test builds its own app, database, servers and clock, so nothing a test depends on
    // lives in module state.
    pool: 'forks',
    isolate: false,
    // Most files wait on real processes, sockets and timers rather than compute: four files at a
    // time keep two cores busy (on 2 cores, quiet: 3 workers 141 s at 163 % CPU, 4 workers 128 s at
    // 180 %, 5 workers 135 s: the CPU grows; the default, cores − 1, runs one file at a time).
    maxWorkers: 4,
    // argon2id at OWASP parameters costs ~45 ms a hash on 2 cores: lockout and reset tests need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits as long as Playwright's own waits (30 s), not Vitest's 1 s: on 2 busy cores a
    // page's answer can take longer than a second, and a poll that gives up then fails a sound test.
    expect: { poll: { timeout: 30_000 } },
    // TIMETRACK_TEST_CPU_LOG=<file>: each file's wall and CPU time (docs/testing.md, "How fast").
    setupFiles: ['test/support/cpu-per-file.ts'],
  },
});
