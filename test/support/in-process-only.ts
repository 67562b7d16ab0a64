// The in-process suite's guard (vitest.in-process.config.ts, docs/testing.md "What runs where"): a test
// file there that starts the built binary (bin/timetrack.cjs, `serve` or any CLI command) fails at that
// start, so the suite stays what `npm test` promises, every test in the test's own process. Such a file
// is named `<feature>.process.test.ts` and runs with `npm run test:process`; a step that only sets up
// a case or reads its result runs the CLI in process instead (test/support/cli-in-process.ts).
// Importing this module installs the guard in the worker: only vitest.in-process.config.ts's setupFiles
// may (a test that imports it would refuse the binary to the process files after it in its worker).
import { onBinaryStart, STARTS_THE_BINARY } from './binary-starts.js';

// Read by test/architecture/in-process-suite.test.ts: its case about the refusal runs only where it applies.
(globalThis as { timetrackInProcessOnly?: boolean }).timetrackInProcessOnly = true;
onBinaryStart('in-process-only', (args) => {
  const message = `timetrack ${args.slice(1).join(' ')}: ${STARTS_THE_BINARY}`;
  // Written as well as thrown: a helper that waits for a process may report only that it ended.
  process.stderr.write(`${message}\n`);
  throw new Error(message);
});
