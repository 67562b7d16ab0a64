// The in-process suite's guard (vitest.in-process.config.ts, docs/testing.md "What runs where"): a test
// file there that starts the built binary (bin/timetrack.cjs, `serve` or any CLI command) fails at that
// start, so the suite stays what `npm test` promises, every test in the test's own process. Such a file
// is named `<feature>.process.test.ts` and runs with `npm run test:process`; a step that only sets up
// a case or reads its result runs the CLI in process instead (test/support/cli-in-process.ts).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

/** The message of the guard's error (test/architecture/in-process-suite.test.ts checks it). */
export const STARTS_THE_BINARY = 'starts the built binary: in the in-process suite (npm test) that is refused; name the file <feature>.process.test.ts';

/** Whether spawn's arguments run bin/timetrack.cjs. */
export function startsTheBinary(args: unknown): boolean {
  return Array.isArray(args) && args.some((arg) => String(arg).endsWith('bin/timetrack.cjs'));
}

const holder = globalThis as { timetrackInProcessOnly?: boolean };
if (!holder.timetrackInProcessOnly) {
  // Once per worker (files share it: isolate: false). execa calls spawn and spawnSync;
  // syncBuiltinESMExports hands the wrappers to modules that imported them by name.
  holder.timetrackInProcessOnly = true;
  const { spawn, spawnSync } = childProcess;
  const refuse = (args: unknown): void => {
    if (startsTheBinary(args)) throw new Error(`timetrack ${(args as unknown[]).slice(1).map(String).join(' ')}: ${STARTS_THE_BINARY}`);
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
