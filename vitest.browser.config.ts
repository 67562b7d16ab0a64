import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { browserTestFiles } from './vitest.browser-files.js';

// The browser client's end-to-end suite: the files that drive Debian's Chromium against real `serve`
// processes (vitest.browser-files.ts), with the default suite's pool, timeouts and CPU log.
// `npm run test:browser` runs it; .ci/run runs it after `npm test` on SQLite and again after the run on
// PostgreSQL. TIMETRACK_REQUIRE_BROWSER=1 makes a missing Chromium a failure instead of a skip.
export default defineConfig({ test: { ...base.test, include: browserTestFiles(), exclude: ['node_modules/**'] } });
