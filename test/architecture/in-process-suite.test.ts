// The in-process suite's guard (test/support/in-process-only.ts): under `npm test` a start of the built
// binary fails the test that makes it, so a file that needs the binary as a process is named
// `<feature>.process.test.ts` and runs with `npm run test:process` (docs/testing.md, "What runs where").
import fs from 'node:fs';
import path from 'node:path';
import { execa, execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, PROJECT_ROOT } from '../support/cli.js';
import { STARTS_THE_BINARY, startsTheBinary } from '../support/binary-starts.js';

const guarded = (globalThis as { timetrackInProcessOnly?: boolean }).timetrackInProcessOnly === true;

describe('the in-process suite', () => {
  it('knows a start of the binary from any other process', () => {
    expect(startsTheBinary([BIN, 'serve'])).toBe(true);
    expect(startsTheBinary(['/elsewhere/bin/timetrack.cjs', '--version'])).toBe(true);
    expect(startsTheBinary(['-e', '0'])).toBe(false);
    expect(startsTheBinary(undefined)).toBe(false);
  });

  // Only where the guard is installed: `npm test` (vitest.in-process.config.ts), not `npx vitest run`.
  it.runIf(guarded)('refuses to start the binary, by execa and by execaSync, and starts other processes', async () => {
    await expect(execa('node', [BIN, '--version'])).rejects.toThrow(STARTS_THE_BINARY);
    expect(() => execaSync('node', [BIN, 'user', 'list'])).toThrow(STARTS_THE_BINARY);
    expect((await execa('node', ['-e', 'process.stdout.write("ok")'])).stdout).toBe('ok');
  });

  it('leaves out every *.process.test.ts file, and the process suite runs only those', async () => {
    const inProcess = (await import('../../vitest.in-process.config.js')).default.test!;
    const processes = (await import('../../vitest.process.config.js')).default.test!;
    expect(inProcess.exclude).toContain('test/**/*.process.test.ts');
    expect(inProcess.setupFiles).toContain('test/support/in-process-only.ts');
    expect(processes.include).toEqual(['test/**/*.process.test.ts']);
    expect(fs.existsSync(path.join(PROJECT_ROOT, 'test/serve/server.process.test.ts'))).toBe(true);
  });

  // Importing the guard installs it in the worker, where `npx vitest run` then runs process files too.
  it('is installed by the in-process config alone: no test module imports the guard', () => {
    const importers = fs
      .readdirSync(path.join(PROJECT_ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|mjs)$/.test(file))
      .filter((file) => /from '[./]+(support\/)?in-process-only\.js'/.test(fs.readFileSync(path.join(PROJECT_ROOT, 'test', file), 'utf8')));
    expect(importers).toEqual([]);
  });
});
