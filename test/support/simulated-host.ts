// A machine under a temporary root for the upgrade tests (test/deploy/upgrade*.test.ts,
// test/deploy/migrate-upgrade-switch.process.test.ts): the system's folders mapped under the root, the
// documented shell blocks of docs/operations.md read line by line, and `systemctl start|stop` played by
// starting the unit's ExecStart and waiting for /api/health. What differs between releases (which
// folders, how the unit's lines become a command) stays in each test's subclass.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { makeTempDir } from './app.js';
import { PROJECT_ROOT } from './cli.js';

const RECIPES = fs.readFileSync(path.join(PROJECT_ROOT, 'docs/operations.md'), 'utf8');

/** Whether this clone's history holds `commit` (a shallow clone does not: its tests say they were skipped). */
export function gitHas(commit: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: PROJECT_ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The lines of the first shell block after a heading (or bold paragraph title) of docs/operations.md. */
export function shellBlockAfter(title: string): string[] {
  const start = RECIPES.indexOf(title);
  if (start < 0) throw new Error(`docs/operations.md has no "${title}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(RECIPES.slice(start));
  if (!block?.[1]) throw new Error(`no shell block after "${title}"`);
  return block[1]
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

export abstract class SimulatedHost {
  readonly root: string;
  running: { child: ResultPromise; output: () => string } | undefined;
  port = 0;

  constructor(prefix: string) {
    this.root = makeTempDir(prefix);
  }

  /** A path (or a line holding paths) of the real system, under the root. */
  abstract map(text: string): string;

  baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the service's process and waits until /api/health answers 200 (30 s at most). */
  protected async launch(argv: string[], cwd: string, env: Record<string, string>): Promise<void> {
    const child = execa('node', argv, { cwd, env, extendEnv: false, reject: false, all: true, stdin: 'ignore' });
    let output = '';
    child.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    this.running = { child, output: () => output };
    for (let waited = 0; ; waited += 100) {
      if (child.exitCode !== null) throw new Error(`the service did not start:\n${output}`);
      const healthy = await fetch(`${this.baseUrl()}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return;
      if (waited > 30_000) throw new Error(`the service did not answer:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** `systemctl stop timetrack`: SIGTERM (the unit's KillSignal=) and wait. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running.child.kill('SIGTERM');
    await this.running.child;
    this.running = undefined;
  }
}
