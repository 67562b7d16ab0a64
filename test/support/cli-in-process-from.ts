// runCliInProcess (test/support/cli-in-process.ts) from a working directory of the test's choosing,
// for a command that only sets up or reads back where the folder it runs from plays a part (an
// operator's commands run from some other folder): the worker changes its working directory for the
// run and goes back after it (docs/testing.md, "How fast"). The working directory is the whole
// process's, so one such run at a time; what a test checks about the process itself (the default path
// it finds, a folder it may not create) keeps the binary, cli() or runCli with `cwd`.
import { runCliInProcess, type InProcessResult } from './cli-in-process.js';

let running = false;

/** `timetrack <args>` in this process, run from `cwd`: its exit code, stdout and stderr, as runCliInProcess gives them. */
export async function runCliInProcessFrom(
  cwd: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<InProcessResult> {
  if (running) throw new Error('runCliInProcessFrom: one run at a time (the working directory belongs to the whole worker)');
  const own = process.cwd();
  running = true;
  process.chdir(cwd);
  try {
    return await runCliInProcess(args, options);
  } finally {
    process.chdir(own);
    running = false;
  }
}
