import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm test`: the default suite without the files that start the built binary (`*.process.test.ts`,
// vitest.process.config.ts). Everything here runs in the test's own process: the application with
// real SQLite files or PostgreSQL, real HTTP on sockets, a real SMTP server, and the CLI through the
// bundle's main(). A file that starts bin/timetrack.cjs here fails (test/support/in-process-only.ts):
// name it `<feature>.process.test.ts` (docs/testing.md, "What runs where").
export default defineConfig({
  test: {
    ...base.test,
    exclude: [...(base.test?.exclude ?? []), 'test/**/*.process.test.ts'],
    setupFiles: [...((base.test?.setupFiles as string[] | undefined) ?? []), 'test/support/in-process-only.ts'],
  },
});
