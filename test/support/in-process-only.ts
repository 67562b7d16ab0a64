// The in-process suite's guard (vitest.in-process.config.ts, docs/testing.md "What runs where"): a test
// file there that starts the built binary (bin/timetrack.cjs, `serve` or any CLI command) fails at that
// start, so the suite stays what `npm test` promises, every test in the test's own process. Such a file
// is named `<feature>.process.test.ts` and runs with `npm run test:process`; a step that only sets up
// a case or reads its result runs the CLI in process instead (test/support/cli-in-process.ts).
// Importing this module installs the guard in the worker: only vitest.in-process.config.ts's setupFiles
// may (a test that imports it would refuse the binary to the process files after it in its worker).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { STARTS_THE_BINARY, startsTheBinary } from './binary-starts.js';

const holder = globalThis as { timetrackInProcessOnly?: boolean };
if (!holder.timetrackInProcessOnly) {
  // Once per worker (files share it: isolate: false). execa calls spawn and spawnSync;
  // syncBuiltinESMExports hands the wrappers to modules that imported them by name.
  holder.timetrackInProcessOnly = true;
  const { spawn, spawnSync } = childProcess;
  const refuse = (args: unknown): void => {
    if (!startsTheBinary(args)) return;
    const message = `timetrack ${(args as unknown[]).slice(1).map(String).join(' ')}: ${STARTS_THE_BINARY}`;
    // Written as well as thrown: a helper that waits for a process may report only that it ended.
    process.stderr.write(`${message}\n`);
    throw new Error(message);
  };
  childProcess.spawn = ((command: string, args: unknown, ...rest: unknown[]) => {
    refuse(args);
    return (spawn as (...all: unknown[]) => unknown)(command, args, ...rest);
  }) as typeof spawn;
  childProcess.spawnSync = ((command: string, args: unknown, ...rest: unknown[]) => {
    refuse(args);
    return (spawnSync as (...all: unknown[]) => unknown)(command, args, ...rest);
  }) as typeof spawnSync;
  syncBuiltinESMExports();
}
