import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/stress/**', 'test/bench/**', 'node_modules/**'],
    // Each file gets its own process: servers, signals and SQLite files never leak between files.
    pool: 'forks',
    // Most files wait on real processes, sockets and timers rather than compute: three files at a
    // time keep two cores busy (the default, cores − 1, runs one file at a time on this machine).
    maxWorkers: 3,
    // argon2id at OWASP parameters costs ~45 ms a hash on 2 cores: lockout and reset tests need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
