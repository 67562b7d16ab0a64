import { defineConfig } from 'vitest/config';
import { browserTestFiles } from './vitest.browser-files.js';

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
    // Most files wait on real processes, sockets and timers rather than compute: three files at a
    // time keep two cores busy (the default, cores − 1, runs one file at a time on this machine).
    maxWorkers: 3,
    // argon2id at OWASP parameters costs ~45 ms a hash on 2 cores: lockout and reset tests need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // TIMETRACK_TEST_CPU_LOG=<file>: each file's wall and CPU time (docs/testing.md, "How fast").
    setupFiles: ['test/support/cpu-per-file.ts'],
  },
});
