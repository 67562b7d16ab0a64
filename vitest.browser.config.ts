import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { browserTestFiles } from './vitest.browser-files.js';

// The browser client's end-to-end suite: the files that drive Debian's Chromium against real `serve`
// processes (vitest.browser-files.ts), with the default suite's pool, timeouts and CPU log.
// `npm run test:browser` runs it; .ci/run runs it after `npm test` on SQLite and again after the run on
// PostgreSQL. TIMETRACK_REQUIRE_BROWSER=1 makes a missing Chromium a failure instead of a skip.
// Two files at a time, not the default suite's four: each drives a Chromium of its own, which keeps a
// core busy. On 2 cores the whole suite takes the same (498 s against 508 s), but four browsers made
// each case 2–4 times slower than alone, and the longest walks (axe-core on every page, 222 s of 300)
// came near their timeouts; with two they take about half of them.
export default defineConfig({ test: { ...base.test, maxWorkers: 2, include: browserTestFiles(), exclude: ['node_modules/**'] } });
