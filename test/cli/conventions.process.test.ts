// CLI habits an operator relies on, with the real binary: JSON errors with --json, documented exit
// codes (3 not found, 4 database busy, 130 aborted), one sentence per known failure, one user
// object everywhere, prompts on the terminal and never in stdout, help with the global options and
// an example, help on stdout for bare `timetrack` and `timetrack user`.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { BIN, cleanEnv, runCli } from '../support/cli.js';
import { runCliAsNobody } from '../support/other-user.js';
import { cli, createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess, runCliInProcess } from '../support/cli-in-process.js';
import { forEngineCommand, onPostgres } from '../support/database.js';

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Runs a shell command line on a pty (util-linux `script`); `answer` waits for a prompt and types. */
function onTerminal(givenCommandLine: string) {
  const { command: commandLine, env } = forEngineCommand(givenCommandLine);
  const child = execa('script', ['-qfec', commandLine, '/dev/null'], { env: cleanEnv(env), extendEnv: false, reject: false, stdin: 'pipe', all: true });
  let screen = '';
  let consumed = 0;
  child.all?.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  async function waitFor(text: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!screen.slice(consumed).includes(text)) {
      if (Date.now() > deadline) throw new Error(`no "${text}" on the terminal:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    consumed = screen.indexOf(text, consumed) + text.length;
  }
  async function answer(prompt: string, text: string): Promise<void> {
    await waitFor(prompt);
    child.stdin?.write(`${text}\r`);
  }
  return { child, answer, waitFor, type: (text: string) => child.stdin?.write(text), screen: () => screen };
}

const binary = (db: string, ...args: string[]) => ['node', BIN, '--db', db, ...args].map(quote).join(' ');

describe('errors and exit codes', () => {
  it('with --json, errors are JSON on stderr; not found exits 3, usage 2', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const missing = await cli(db, ['--json', 'user', 'show', 'nobody@example.com']);
    expect(missing.exitCode).toBe(3);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(String(missing.stderr))).toEqual({ error: { code: 'USER_NOT_FOUND', message: 'no account with the e-mail address nobody@example.com' } });
    // The first through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    const plain = await cliInProcess(db, ['user', 'show', 'nobody@example.com']);
    expect(plain.exitCode).toBe(3);
    expect(plain.stderr).toBe('timetrack: no account with the e-mail address nobody@example.com');

    const usage = await cliInProcess(db, ['--json', 'user', 'show']);
    expect(usage.exitCode).toBe(2);
    expect(JSON.parse(String(usage.stderr))).toEqual({ error: { code: 'USAGE_ERROR', message: "missing required argument 'account'" } });
    const refused = await cliInProcess(db, ['--json', 'user', 'delete', 'ann@example.com']);
    expect(refused.exitCode).toBe(2);
    expect(JSON.parse(String(refused.stderr)).error.code).toBe('USAGE_ERROR');
  });

  it.skipIf(onPostgres)('a database held by another writer past the busy timeout exits 4 with its own sentence (SQLite: skipped on PostgreSQL)', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const holder = new Database(db);
    holder.exec('begin immediate');
    try {
      const busy = await cli(db, ['--json', 'user', 'unlock', 'ann@example.com']);
      expect(busy.exitCode).toBe(4);
      expect(JSON.parse(String(busy.stderr)).error).toEqual({
        code: 'DATABASE_BUSY',
        message: expect.stringMatching(/^the database is busy: another process held its write lock/),
      });
    } finally {
      holder.exec('rollback');
      holder.close();
    }
  });

  it('output into a pipe whose reader went away (| head) ends quietly with success, for listings and exports', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    for (const args of [
      ['user', 'list'],
      ['--json', 'user', 'list'],
      ['user', 'export', 'ann@example.com'],
    ]) {
      // The reader closes its end at once, before node has started: the first write meets EPIPE.
      const { command, env } = forEngineCommand(`node '${BIN}' --db '${db}' ${args.join(' ')} | (exec 0<&-; true); echo "exit \${PIPESTATUS[0]}"`);
      const result = await execa('bash', ['-c', command], { env: cleanEnv(env), extendEnv: false, reject: false });
      expect({ args, stdout: result.stdout, stderr: result.stderr }).toEqual({ args, stdout: 'exit 0', stderr: '' });
    }
  });

  it('a port in use and an unresolvable host each get their own sentence, not "unexpected error"', async () => {
    const db = tempDb();
    await cliInProcess(db, ['migrate']);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const inUse = await cli(db, ['serve', '--port', String(port)]);
      expect(inUse.exitCode).toBe(1);
      expect(inUse.stderr).toMatch(new RegExp(`timetrack: port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      blocker.close();
    }
    const unresolvable = await cli(db, ['--json', 'serve', '--host', 'no-such-host.invalid', '--port', '0']);
    expect(unresolvable.exitCode).toBe(1);
    expect(String(unresolvable.stderr).trim().split('\n').at(-1)).toBe(
      JSON.stringify({ error: { code: 'HOST_UNRESOLVABLE', message: 'the host name no-such-host.invalid cannot be resolved; check --host or HOST' } }),
    );
  });

  it.skipIf(onPostgres)('a database file this user cannot write gets a sentence about permissions (SQLite: skipped on PostgreSQL)', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    if (process.getuid?.() === 0) {
      // root writes any file: run the command as nobody instead (--force: the file is root's).
      fs.chmodSync(path.dirname(db), 0o755);
      fs.chmodSync(db, 0o644);
      const denied = await runCliAsNobody(['--db', db, '--force', 'user', 'unlock', 'ann@example.com']);
      expect(denied.exitCode).toBe(1);
      expect(denied.stderr).toMatch(/not writable by this user|permission denied/);
      expect(denied.stderr).not.toMatch(/unexpected error|\n\s+at /);
      return;
    }
    fs.chmodSync(db, 0o400);
    const denied = await cli(db, ['user', 'unlock', 'ann@example.com']);
    fs.chmodSync(db, 0o600);
    expect(denied.exitCode).toBe(1);
    expect(denied.stderr).toMatch(/not writable by this user|permission denied|cannot open/);
  });

  it('Ctrl-C at a prompt exits 130 with "aborted"', async () => {
    const db = tempDb();
    await cliInProcess(db, ['migrate']);
    const session = onTerminal(`${binary(db, 'user', 'create')}; echo "exit=$?"`);
    await session.waitFor('E-mail address:');
    session.type('\x03');
    await session.child;
    expect(session.screen()).toContain('timetrack: aborted');
    expect(session.screen()).toMatch(/exit=130/);
  });
});

describe('prompts', () => {
  it('--json user create > out.json asks on the screen, refuses a taken e-mail at its prompt, and writes only JSON', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'taken@example.com');
    const out = path.join(path.dirname(db), 'out.json');
    const session = onTerminal(`${['node', BIN, '--json', '--db', db, 'user', 'create'].map(quote).join(' ')} > ${quote(out)}`);
    await session.answer('E-mail address:', 'not an address');
    await session.waitFor('e-mail');
    // Clear the refused answer, then give a taken one: refused at once, before any password.
    session.type('\x15');
    await session.answer('E-mail address:', 'taken@example.com');
    await session.waitFor('already exists');
    session.type('\x15');
    await session.answer('E-mail address:', 'new@example.com');
    await session.answer('Full name:', 'New Person');
    await session.answer('Username (optional', '');
    await session.answer('Password (8 to 256 characters):', PASSWORD);
    await session.answer('Password again:', PASSWORD);
    const result = await session.child;
    expect(result.exitCode).toBe(0);
    expect(session.screen()).not.toContain(PASSWORD);
    const written = JSON.parse(fs.readFileSync(out, 'utf8')) as { user: { email: string } };
    expect(written.user.email).toBe('new@example.com');
  });

  it('--password-stdin on a terminal asks for the password without echo', async () => {
    const db = tempDb();
    await cliInProcess(db, ['migrate']);
    const session = onTerminal(binary(db, 'user', 'create', '--email', 'ann@example.com', '--name', 'Ann', '--password-stdin'));
    await session.answer('Password (8 to 256 characters):', PASSWORD);
    await session.answer('Password again:', PASSWORD);
    const result = await session.child;
    expect(result.exitCode).toBe(0);
    expect(session.screen()).not.toContain(PASSWORD);
    expect(session.screen()).toContain('created account ann@example.com');
  });
});

describe('JSON shapes and help', () => {
  it('list, show, unlock, disable and enable answer the same user object, snake_case', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    // The binary answers the first; the same bundle in process the others (docs/testing.md, "How fast").
    const json = async (...args: string[]) => JSON.parse(String((await cliInProcess(db, ['--json', ...args])).stdout)) as Record<string, any>;
    const listed = (JSON.parse(String((await cli(db, ['--json', 'user', 'list'])).stdout)) as Record<string, any>).users[0];
    const shown = (await json('user', 'show', 'ann@example.com')).user;
    const unlocked = (await json('user', 'unlock', 'ann@example.com')).user;
    const disabled = (await json('user', 'disable', 'ann@example.com')).user;
    const enabled = (await json('user', 'enable', 'ann@example.com')).user;
    const keys = ['active_sessions', 'created_at', 'email', 'failed_attempts', 'full_name', 'id', 'locked_until', 'role', 'status', 'two_factor', 'username'];
    for (const user of [listed, shown, unlocked, disabled, enabled]) expect(Object.keys(user).sort()).toEqual(keys);
    expect(shown).toEqual(listed);
    expect(disabled.status).toBe('disabled');
    expect(enabled).toEqual(listed);
  });

  it('every command help shows the global options and an example; bare timetrack and timetrack user print help on stdout', async () => {
    const top = await runCli([]);
    expect(top.exitCode).toBe(0);
    expect(top.stdout).toMatch(/^Usage: timetrack/);
    // The first through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    const group = await runCliInProcess(['user']);
    expect(group.exitCode).toBe(0);
    expect(group.stdout).toMatch(/^Usage: timetrack user/);
    expect((await runCliInProcess(['user', 'frob'])).exitCode).toBe(2);

    const leaves = [
      ['serve'],
      ['migrate'],
      ['user', 'create'],
      ['user', 'list'],
      ['user', 'show'],
      ['user', 'unlock'],
      ['user', 'disable'],
      ['user', 'enable'],
      ['user', 'delete'],
      ['user', 'export'],
      ['user', 'import'],
      ['token', 'list'],
      ['token', 'revoke'],
      ['reset', 'issue'],
      ['entries', 'export'],
      ['entries', 'import'],
      ['audit', 'list'],
      ['audit', 'prune'],
    ];
    // `serve --help` through the binary, the other leaves through the same bundle in process (docs/testing.md, "How fast").
    for (const leaf of leaves) {
      const help = String((leaf[0] === 'serve' ? await runCli([...leaf, '--help']) : await runCliInProcess([...leaf, '--help'])).stdout);
      expect(help, leaf.join(' ')).toMatch(/--db <path>/);
      expect(help, leaf.join(' ')).toMatch(/--env-file <path>/);
      expect(help, leaf.join(' ')).toMatch(/--json/);
      expect(help, leaf.join(' ')).toMatch(/Examples?:\n\s+\$? ?timetrack /);
    }
  });
});
