// The interactive `user create`, driven through a real pseudo-terminal: util-linux `script` runs the
// binary on a pty, and the test types into it like a person would, answer by answer.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../support/cli.js';
import { PASSWORD } from '../support/app.js';
import { cli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { forEngineCommand, queryRows } from '../support/database.js';

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Starts a command on a pty; `answer(prompt, text)` waits for the prompt, then types the text and Enter. */
function onTerminal(args: string[]) {
  const { command, env } = forEngineCommand(['node', BIN, ...args].map(quote).join(' '));
  const child = execa('script', ['-qfec', command, '/dev/null'], { env: cleanEnv(env), extendEnv: false, reject: false, stdin: 'pipe', all: true });
  let screen = '';
  let consumed = 0;
  child.all?.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  async function answer(prompt: string, text: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!screen.slice(consumed).includes(prompt)) {
      if (Date.now() > deadline) throw new Error(`no prompt "${prompt}" on the terminal:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    consumed = screen.indexOf(prompt, consumed) + prompt.length;
    child.stdin?.write(`${text}\r`);
  }
  return { child, answer, screen: () => screen };
}

describe('timetrack user create on a terminal', () => {
  it('asks for every missing field, hides the password, and asks again when the confirmation differs', async () => {
    const db = tempDb();
    const session = onTerminal(['--db', db, 'user', 'create', '--name', 'Ann Example']);
    await session.answer('E-mail address:', 'ann@example.com');
    await session.answer('Username (optional', 'ann');
    await session.answer('Password (8 to 256 characters):', PASSWORD);
    await session.answer('Password again:', 'not the same password');
    await session.answer('Password (8 to 256 characters):', PASSWORD);
    await session.answer('Password again:', PASSWORD);
    const result = await session.child;

    expect(result.exitCode).toBe(0);
    expect(session.screen()).toContain('The two passwords differ; try again.');
    expect(session.screen()).toContain('created account ann@example.com (id 1)');
    // The password never appears on the screen.
    expect(session.screen()).not.toContain(PASSWORD);

    const [user] = await queryRows(db, 'select email, full_name, username from users');
    expect(user).toEqual({ email: 'ann@example.com', full_name: 'Ann Example', username: 'ann' });
    const login = await cliInProcess(db, ['--json', 'user', 'show', 'ann@example.com']);
    expect(login.exitCode).toBe(0);
  });

  it('refuses a common password at the prompt and accepts the next one', async () => {
    const db = tempDb();
    const session = onTerminal(['--db', db, 'user', 'create', '--email', 'bob@example.com', '--name', 'Bob', '--username', 'bob']);
    await session.answer('Password (8 to 256 characters):', 'password123');
    // The refused text stays in the field: Ctrl-U clears it, as a person would.
    await session.answer('too common', `\u0015${PASSWORD.toUpperCase()}`);
    await session.answer('Password again:', PASSWORD.toUpperCase());
    const result = await session.child;
    expect(result.exitCode, session.screen()).toBe(0);
    expect(session.screen()).toContain('created account bob@example.com');
  });
});

describe('passwords from the shell', () => {
  it('user set-password --password-stdin on a terminal hides the password and asks twice; piped input is exactly one line', async () => {
    const db = tempDb();
    const created = await cliInProcess(db, ['user', 'create', '--email', 'cat@example.com', '--name', 'Cat', '--password-stdin'], { input: `${PASSWORD}\n` });
    expect(created.exitCode).toBe(0);
    const session = onTerminal(['--db', db, 'user', 'set-password', 'cat@example.com', '--password-stdin']);
    const secret = 'A terminal-typed passphrase 41';
    await session.answer('Password (8 to 256 characters):', secret);
    await session.answer('Password again:', secret);
    const result = await session.child;
    expect(result.exitCode, session.screen()).toBe(0);
    expect(session.screen()).not.toContain(secret);

    // Piped: a second line (or an embedded newline) is refused, nothing is changed.
    // The first refusal through the binary, the second through the same bundle in process (docs/testing.md, "How fast").
    for (const [index, input] of [`${PASSWORD}\nclear\n`, `${PASSWORD}\r\nsecond`].entries()) {
      const refused = await (index === 0 ? cli : cliInProcess)(db, ['user', 'set-password', 'cat@example.com', '--password-stdin'], { input });
      expect(refused.exitCode).toBe(2);
      expect(String(refused.stderr)).toBe(
        'timetrack: --password-stdin reads exactly one line, and standard input held more: give the password alone, on one line',
      );
    }
    const twoLines = await cli(db, ['user', 'create', '--email', 'dan@example.com', '--name', 'Dan', '--password-stdin'], { input: `${PASSWORD}\nmore\n` });
    expect(twoLines.exitCode).toBe(2);
    expect((await cliInProcess(db, ['user', 'set-password', 'cat@example.com', '--password-stdin'], { input: `${PASSWORD}\n` })).exitCode).toBe(0);
  });

  it('interactive user create refuses a taken username at its prompt', async () => {
    const db = tempDb();
    expect(
      (
        await cliInProcess(db, ['user', 'create', '--email', 'eve@example.com', '--name', 'Eve', '--username', 'eve', '--password-stdin'], {
          input: `${PASSWORD}\n`,
        })
      ).exitCode,
    ).toBe(0);
    const session = onTerminal(['--db', db, 'user', 'create', '--email', 'eva@example.com', '--name', 'Eva']);
    await session.answer('Username (optional', 'EVE');
    await session.answer('This username is taken', '\u0015eva');
    await session.answer('Password (8 to 256 characters):', PASSWORD);
    await session.answer('Password again:', PASSWORD);
    const result = await session.child;
    expect(result.exitCode, session.screen()).toBe(0);
    expect(session.screen()).toContain('created account eva@example.com');
  });
});
