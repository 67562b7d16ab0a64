import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:process`: the files that start the built binary, `serve` or a CLI command, as processes
// of their own (`*.process.test.ts`): signals, start-up and shutdown, locks, upgrades, the CLI's exit
// codes and output. Same pool settings as the default suite; .ci/run runs it on both engines.
export default defineConfig({
  test: { ...base.test, include: ['test/**/*.process.test.ts'] },
});
