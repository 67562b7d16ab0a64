// What the in-process suite's guard (./in-process-only.ts) refuses, without installing it: importing
// this module changes nothing, so a test may check the rule in any suite.

/** The message of the guard's error (test/architecture/in-process-suite.test.ts checks it). */
export const STARTS_THE_BINARY = 'starts the built binary: in the in-process suite (npm test) that is refused; name the file <feature>.process.test.ts';

/** Whether spawn's arguments run bin/timetrack.cjs. */
export function startsTheBinary(args: unknown): boolean {
  return Array.isArray(args) && args.some((arg) => String(arg).endsWith('bin/timetrack.cjs'));
}
