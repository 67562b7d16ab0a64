// Starts of the built binary by the test worker: what the in-process suite's guard (./in-process-only.ts)
// refuses and the CPU log (./cpu-per-file.ts) counts. Importing this module changes nothing; the first
// `onBinaryStart` of a worker wraps child_process.spawn and spawnSync (execa calls them).
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

/** The message of the guard's error (test/architecture/in-process-suite.test.ts checks it). */
export const STARTS_THE_BINARY = 'starts the built binary: in the in-process suite (npm test) that is refused; name the file <feature>.process.test.ts';

/** Whether spawn's arguments run bin/timetrack.cjs. */
export function startsTheBinary(args: unknown): boolean {
  return Array.isArray(args) && args.some((arg) => String(arg).endsWith('bin/timetrack.cjs'));
}

type Listener = (args: string[]) => void;

/**
 * Calls `listener` with the arguments of every start of the built binary in this worker, before the
 * start (a listener that throws refuses it). One listener per `key`: setup files run again for each
 * file of the worker (isolate: false), and a second call with the same key replaces the first.
 */
export function onBinaryStart(key: string, listener: Listener): void {
  const holder = globalThis as { timetrackBinaryStartListeners?: Map<string, Listener> };
  if (!holder.timetrackBinaryStartListeners) {
    const listeners = new Map<string, Listener>();
    holder.timetrackBinaryStartListeners = listeners;
    const notify = (args: unknown): void => {
      if (!startsTheBinary(args)) return;
      for (const each of listeners.values()) each((args as unknown[]).map(String));
    };
    const { spawn, spawnSync } = childProcess;
    childProcess.spawn = ((command: string, args: unknown, ...rest: unknown[]) => {
      notify(args);
      return (spawn as (...all: unknown[]) => unknown)(command, args, ...rest);
    }) as typeof spawn;
    childProcess.spawnSync = ((command: string, args: unknown, ...rest: unknown[]) => {
      notify(args);
      return (spawnSync as (...all: unknown[]) => unknown)(command, args, ...rest);
    }) as typeof spawnSync;
    // Hands the wrappers to modules that imported them by name.
    syncBuiltinESMExports();
  }
  holder.timetrackBinaryStartListeners.set(key, listener);
}
