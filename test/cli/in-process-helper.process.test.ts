// The tests' in-process CLI runner (test/support/cli-in-process.ts), which set-up steps use instead
// of a node process (docs/testing.md, "How fast"): a command run there answers what the built binary
// answers (exit code, stdout, stderr), and its environment and streams stay its own, unseen by the
// worker's code running beside it and gone once it ends.
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess, refusedServeInProcess } from '../support/cli-in-process.js';
import { runCli } from '../support/cli.js';

/** The two databases (their paths; on PostgreSQL the names that stand for them) and a run's times written alike. */
function alike(text: string, ...dbs: string[]): string {
  return dbs
    .reduce((shown, db) => shown.replaceAll(db, '<db>'), text)
    .replace(/(postgres:\/\/\S+\/)tt_\w+/g, '$1<db>')
    .replace(/"(at|\w+_at)": "[^"]*"/g, '"$1": "<time>"');
}

describe('the in-process CLI runner', () => {
  it('answers what the binary answers: output, failures, usage errors, stdin, the audit actor', async () => {
    const [own, binary] = [tempDb(), tempDb()];
    const runs: Array<{ args: string[]; input?: string }> = [
      { args: ['user', 'create', '--email', 'ann@example.com', '--name', 'Ann', '--password-stdin'], input: `${PASSWORD}\n` },
      { args: ['--json', 'user', 'show', 'ann@example.com'] },
      { args: ['user', 'list'] },
      { args: ['--json', 'audit', 'list'] },
      { args: ['user', 'show', 'nobody@example.com'] },
      { args: ['--json', 'user', 'show', 'nobody@example.com'] },
      { args: ['user', 'frobnicate'] },
      { args: ['--version'] },
      { args: ['user', 'create', '--help'] },
    ];
    for (const { args, input } of runs) {
      const [inProcess, child] = [await cliInProcess(own, args, { input }), await cli(binary, args, { input })];
      expect(
        { exitCode: inProcess.exitCode, stdout: alike(inProcess.stdout, own, binary), stderr: alike(inProcess.stderr, own, binary) },
        args.join(' '),
      ).toEqual({ exitCode: child.exitCode, stdout: alike(String(child.stdout), own, binary), stderr: alike(String(child.stderr), own, binary) });
    }
  });

  it("keeps a run's environment and streams to the run: code beside it sees the worker's own, side-by-side runs their own", async () => {
    const ownEnv = process.env;
    const ownStdout = process.stdout;
    const ownSetting = ownEnv.REGISTRATION;
    const seenBeside: Array<{ env: string | undefined; stdout: boolean }> = [];
    let ticksDuringRuns = 0;
    // Scheduled before the runs, so its callbacks run in the worker's own context while the runs wait on argon2.
    const beside = setInterval(() => {
      if (process.env === ownEnv) return;
      ticksDuringRuns += 1;
      seenBeside.push({ env: process.env.REGISTRATION, stdout: process.stdout === ownStdout });
    }, 1);
    try {
      const db = tempDb();
      const [closed, created, open] = await Promise.all([
        cliInProcess(db, ['--json', 'config'], { env: { REGISTRATION: 'closed' } }),
        cliInProcess(db, ['user', 'create', '--email', 'bob@example.com', '--name', 'Bob', '--password-stdin'], { input: `${PASSWORD}\n` }),
        cliInProcess(db, ['--json', 'config']),
      ]);
      const registration = (result: { stdout: string }) =>
        (JSON.parse(result.stdout) as { settings: Array<{ name: string; value: string }> }).settings.find(({ name }) => name === 'REGISTRATION')?.value;
      expect([registration(closed), registration(open)]).toEqual(['closed', 'open']);
      // Its password came from its own standard input, not from a run beside it.
      expect({ exitCode: created.exitCode, stderr: created.stderr }).toEqual({ exitCode: 0, stderr: '' });
    } finally {
      clearInterval(beside);
    }
    expect(ticksDuringRuns).toBeGreaterThan(0);
    expect(seenBeside.every(({ env, stdout }) => env === ownSetting && stdout)).toBe(true);
    // Once no run is under way, the worker's own objects are back.
    expect(process.env).toBe(ownEnv);
    expect(process.stdout).toBe(ownStdout);
  });

  it('refuses what needs a process of its own', async () => {
    await expect(cliInProcess(tempDb(), ['serve', '--port', '0'])).rejects.toThrow(/needs a process of its own/);
    await expect(cliInProcess(tempDb(), ['entries', 'import', '--user', 'ann@example.com', '-'])).rejects.toThrow(/needs a process of its own/);
    await expect(cliInProcess(tempDb(), ['user', 'list'], { env: { TZ: 'Europe/Berlin' } })).rejects.toThrow(/needs a process of its own/);
  });

  it('runs a refused start of serve as the binary answers it, and rejects a start its settings allow', async () => {
    const db = tempDb();
    const starts: Array<{ args: string[]; env: Record<string, string> }> = [
      { args: ['serve', '--port', '0', '--db', db], env: { JWT_EXPIRATION: '24x' } },
      { args: ['--json', 'serve', '--port', '0', '--db', db], env: { SMTP_HOST: '127.0.0.1' } },
    ];
    for (const { args, env } of starts) {
      const [inProcess, child] = [await refusedServeInProcess(args, { env }), await runCli(args, { env })];
      expect(inProcess, args.join(' ')).toEqual({ exitCode: child.exitCode, stdout: String(child.stdout), stderr: String(child.stderr) });
      expect(inProcess.exitCode).not.toBe(0);
    }
    await expect(refusedServeInProcess(['serve', '--port', '0', '--db', db])).rejects.toThrow(/accepted its settings and was about to listen/);
    await expect(refusedServeInProcess(['user', 'list'])).rejects.toThrow(/is not serve/);
    // Nothing of the guard stays behind: the worker still listens.
    const net = await import('node:net');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
