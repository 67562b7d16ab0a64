// Upgrading from 0.1.0 keeps the data. 0.1.0 is built from the commit it was released from (its own
// bundle script, on this checkout's node_modules) and installed the way its README said: a checkout in
// /opt/timetrack, its systemd unit (which set TIMETRACK_DB itself) and its example env file (where
// TIMETRACK_DB is commented out). Accounts, a session and an entry are made through its API. Then the
// shell block of docs/operations.md "Upgrading from 0.1.0" runs line by line, with the system's folders under a
// temporary root and systemctl played by the unit files themselves (Environment=, EnvironmentFile=,
// WorkingDirectory=, StateDirectory=, ExecStart=). The old password signs in on the new version, and
// "Going back to 0.1.0" brings 0.1.0 back on the copy. SQLite only: 0.1.0 knew no other engine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { BIN, cleanEnv, PROJECT_ROOT } from '../support/cli.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { runCliInProcessFrom } from '../support/cli-in-process-from.js';
import { onPostgres } from '../support/database.js';
import { freePort } from '../support/server.js';
import { gitHas, shellBlockAfter, SimulatedHost } from '../support/simulated-host.js';

/** The commit 0.1.0 was released from: the last of its round, version 0.1.0, migrations 001–003 (CHANGELOG, 0.1.0). */
const RELEASE_0_1_0 = 'f26ad21';
const VERSION = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const historyHere = gitHas(RELEASE_0_1_0);
if (!historyHere) console.log(`Upgrade test skipped: commit ${RELEASE_0_1_0} (release 0.1.0) is not in this clone's history (a shallow clone?)`);

/** Builds 0.1.0 from git into `folder` as `npm ci` did there (its `bundle` script), on this checkout's node_modules. */
async function build010(folder: string): Promise<void> {
  fs.mkdirSync(folder, { recursive: true });
  const archive = execFileSync('git', ['archive', RELEASE_0_1_0], { cwd: PROJECT_ROOT, maxBuffer: 64 * 1024 * 1024 });
  await execa('tar', ['-x', '-C', folder], { input: archive });
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(folder, 'node_modules'));
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string> };
  expect(manifest.version).toBe('0.1.0');
  expect(
    fs
      .readdirSync(path.join(folder, 'migrations'))
      .filter((file) => /^\d{3}_/.test(file))
      .sort(),
  ).toEqual(['001_accounts_and_sessions.ts', '002_time_tracking.ts', '003_daily_totals_covering_index.ts']);
  await execa('sh', ['-c', manifest.scripts.bundle!], {
    cwd: folder,
    env: { ...cleanEnv(), PATH: `${path.join(PROJECT_ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}` },
    extendEnv: false,
  });
}

/** A machine under a temporary root: the folders the README names, mapped, and systemctl played by the unit file. */
class Machine extends SimulatedHost {
  constructor() {
    super('timetrack-upgrade-');
  }

  /** A path of the real system, under the root. */
  map(text: string): string {
    if (text === '/root') return path.join(this.root, 'root');
    return text.replace(
      /(?<![\w/.-])\/(var\/lib\/timetrack|etc\/timetrack|etc\/systemd\/system|opt\/timetrack|usr\/lib\/node_modules\/timetrack|usr\/bin\/timetrack)/g,
      `${this.root}/$1`,
    );
  }

  /**
   * The new release installed: its files where the README unpacks them (config/ is what the steps
   * read), and /usr/bin/timetrack run as this checkout's build (test/stress/packed-install.test.ts
   * installs the real tarball the README's way).
   */
  installRelease(): void {
    const folder = this.map('/usr/lib/node_modules/timetrack');
    fs.mkdirSync(folder, { recursive: true });
    fs.cpSync(path.join(PROJECT_ROOT, 'config'), path.join(folder, 'config'), { recursive: true });
    fs.mkdirSync(this.map('/usr/bin'), { recursive: true });
  }

  /** `systemctl start timetrack`: runs the installed unit file as systemd would (the settings the test needs). */
  async start(): Promise<void> {
    const unit = fs.readFileSync(this.map('/etc/systemd/system/timetrack.service'), 'utf8');
    const values = (key: string) =>
      unit
        .split('\n')
        .map((line) => new RegExp(`^${key}=(.*)$`).exec(line.trim())?.[1])
        .filter((value): value is string => value !== undefined);
    const env: Record<string, string> = {};
    for (const assignment of values('Environment')) {
      const [name, ...rest] = assignment.split('=');
      env[name!] = this.map(rest.join('='));
    }
    // EnvironmentFile= wins over Environment= (systemd.exec).
    for (const file of values('EnvironmentFile')) Object.assign(env, parseEnv(fs.readFileSync(this.map(file), 'utf8')));
    for (const name of values('StateDirectory')) {
      const folder = this.map(`/var/lib/${name}`);
      fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
      env.STATE_DIRECTORY = folder;
    }
    const [command, ...args] = values('ExecStart').at(-1)!.split(/\s+/);
    // The new release's `timetrack` on the PATH is this checkout's build; 0.1.0 named node and its checkout.
    const argv = command === '/usr/bin/timetrack' ? [BIN, ...args] : args.map((arg) => this.map(arg));
    expect(command === '/usr/bin/timetrack' || command === '/usr/bin/node').toBe(true);
    const { LOG_LEVEL: _level, ...base } = cleanEnv();
    await this.launch(argv, this.map(values('WorkingDirectory').at(-1)!), { ...base, ...env });
  }

  /** One line of a README shell block, as root on this machine. */
  async run(line: string): Promise<{ stdout: string }> {
    const command = line.replace(/\s+#.*$/, '');
    if (command === 'systemctl stop timetrack') return this.stop().then(() => ({ stdout: '' }));
    if (command === 'systemctl start timetrack') return this.start().then(() => ({ stdout: '' }));
    if (command === 'systemctl daemon-reload') return { stdout: '' };
    // The release's three install lines (tarball, npm ci, the link) as one: see installRelease.
    if (/^mkdir \/usr\/lib\/node_modules\/timetrack && tar -xzf \.\/timetrack-[\d.]+\.tgz /.test(command))
      return Promise.resolve(this.installRelease()).then(() => ({ stdout: '' }));
    if (
      command === 'npm ci --prefix /usr/lib/node_modules/timetrack' ||
      command === 'ln -s /usr/lib/node_modules/timetrack/bin/timetrack.cjs /usr/bin/timetrack'
    )
      return { stdout: '' };
    if (command.startsWith('git clone ')) {
      expect(command).toContain(`checkout ${RELEASE_0_1_0}`);
      await build010(this.map('/opt/timetrack'));
      return { stdout: '' };
    }
    const curl = /^curl -s http:\/\/127\.0\.0\.1:8080(\/\S+)$/.exec(command);
    if (curl) return { stdout: await (await fetch(`${this.baseUrl()}${curl[1]}`)).text() };
    // Every user is root here: the service's user and its ownership are played by root.
    if (command.includes('/usr/bin/node') || /\bnpm\b/.test(command)) throw new Error(`README step not played by this test: ${line}`);
    const shell = this.map(command)
      .replace(/^sudo -u timetrack timetrack /, `node ${BIN} `)
      .replace(' -o timetrack -g timetrack ', ' ');
    // In root's home, as a root shell would be: never in this checkout.
    const home = this.map('/root');
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    // Never this checkout: every path of a step lies under the test's root.
    if (shell.includes(PROJECT_ROOT.replace(/\/$/, '')) && !shell.startsWith(`node ${BIN} `))
      throw new Error(`README step reaches outside the test's root: ${shell}`);
    const result = await execa('sh', ['-ec', shell], { cwd: home, env: cleanEnv({ HOME: home }), extendEnv: false, reject: false, stdin: 'ignore' });
    if (result.exitCode !== 0) throw new Error(`README step failed: ${line}\n${result.stderr}`);
    return { stdout: result.stdout };
  }
}

async function api(machine: Machine, method: string, route: string, body?: unknown, token?: string) {
  const response = await fetch(`${machine.baseUrl()}${route}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as Record<string, unknown> };
}

let machine: Machine | undefined;
afterEach(async () => {
  await machine?.stop();
  machine = undefined;
});

describe.skipIf(onPostgres || !historyHere)('upgrading from 0.1.0 (SQLite: 0.1.0 had no other engine)', () => {
  it('0.1.0 installed as its README said, upgraded by docs/operations.md "Upgrading from 0.1.0": the old password signs in, sessions and entries stay; "Going back to 0.1.0" brings 0.1.0 back on the copy', async () => {
    machine = new Machine();
    const m = machine;
    m.port = await freePort();
    // 0.1.0's install (its unit file's steps): the checkout with `npm ci`, the state folder, the example env file, the unit.
    await build010(m.map('/opt/timetrack'));
    fs.mkdirSync(m.map('/var/lib/timetrack'), { recursive: true, mode: 0o700 });
    fs.mkdirSync(m.map('/etc/timetrack'), { recursive: true });
    fs.mkdirSync(m.map('/etc/systemd/system'), { recursive: true });
    const oldEnvFile = fs.readFileSync(m.map('/opt/timetrack/config/timetrack.example.env'), 'utf8');
    expect(oldEnvFile).toMatch(/^#TIMETRACK_DB=/m);
    // The operator's one edit here: the port (8080 may be taken on the test machine).
    fs.writeFileSync(m.map('/etc/timetrack/timetrack.env'), `${oldEnvFile}\nPORT=${m.port}\n`, { mode: 0o640 });
    fs.copyFileSync(m.map('/opt/timetrack/config/timetrack.service'), m.map('/etc/systemd/system/timetrack.service'));
    await m.start();
    expect((await api(m, 'GET', '/api/health')).status).toBe(200);

    // Data made through 0.1.0: an account with a username, a second one, a session and an entry.
    expect((await api(m, 'POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann', username: 'ann' })).status).toBe(201);
    expect((await api(m, 'POST', '/api/auth/register', { email: 'bob@example.com', password: 'another long passphrase', full_name: 'Bob' })).status).toBe(201);
    const signIn = await api(m, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
    expect(signIn.status).toBe(200);
    const oldToken = signIn.body.token as string;
    const entry = await api(
      m,
      'POST',
      '/api/time-entries',
      { start_at: '2026-11-16T08:00:00Z', end_at: '2026-11-16T11:30:00Z', note: 'made on 0.1.0' },
      oldToken,
    );
    expect(entry.status).toBe(201);
    expect(fs.existsSync(m.map('/var/lib/timetrack/timetrack.db.jwt-secret'))).toBe(true);

    // docs/operations.md "Upgrading from 0.1.0", line by line.
    const steps = shellBlockAfter('### Upgrading from 0.1.0');
    expect(steps[0]).toBe('systemctl stop timetrack');
    expect(steps).toContain("echo 'TIMETRACK_DB=/var/lib/timetrack/timetrack.db' >> /etc/timetrack/timetrack.env");
    let health = '';
    for (const step of steps) {
      const { stdout } = await m.run(step);
      if (step.startsWith('curl ')) health = stdout;
      if (step.includes(' migrate'))
        expect(stdout).toMatch(/^applied \d+ migration\(s\): 004_daily_totals_by_first_instant_of_day, .*008_username_lookup_by_lower\b/m);
    }
    // The backup step copied the database and its secret; the old checkout is gone.
    expect(fs.readdirSync(m.map('/var/lib/timetrack/before-0.2.0')).sort()).toEqual(expect.arrayContaining(['timetrack.db', 'timetrack.db.jwt-secret']));
    expect(fs.existsSync(m.map('/opt/timetrack'))).toBe(false);
    expect(JSON.parse(health)).toMatchObject({ status: 'ok', version: VERSION, engine: 'sqlite' });
    expect(m.running?.output()).toContain(m.map('/var/lib/timetrack/timetrack.db'));
    expect(fs.existsSync(m.map('/var/lib/timetrack/data'))).toBe(false);

    // The old password signs in (by e-mail and by username); the 0.1.0 session is still valid; the entry is there.
    expect((await api(m, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).status).toBe(200);
    expect((await api(m, 'POST', '/api/auth/login', { email: 'ann', password: PASSWORD })).status).toBe(200);
    expect((await api(m, 'POST', '/api/auth/login', { email: 'bob@example.com', password: 'another long passphrase' })).status).toBe(200);
    const me = await api(m, 'GET', '/api/auth/me', undefined, oldToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { email: 'ann@example.com', username: 'ann' } });
    const entries = await api(m, 'GET', '/api/time-entries?from=2026-11-16&to=2026-11-17', undefined, oldToken);
    expect(JSON.stringify(entries.body)).toContain('made on 0.1.0');
    // Written on 0.2.0, and lost by going back.
    expect((await api(m, 'POST', '/api/auth/register', { email: 'cy@example.com', password: 'a third long passphrase', full_name: 'Cy' })).status).toBe(201);

    // docs/operations.md "Going back to 0.1.0", line by line: 0.1.0 runs again on the copy.
    for (const step of shellBlockAfter('**Going back to 0.1.0.**')) await m.run(step);
    expect((await api(m, 'GET', '/api/health')).body).toMatchObject({ status: 'ok' });
    expect((await api(m, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).status).toBe(200);
    expect((await api(m, 'GET', '/api/auth/me', undefined, oldToken)).status).toBe(200);
    expect((await api(m, 'POST', '/api/auth/login', { email: 'cy@example.com', password: 'a third long passphrase' })).status).toBe(401);
  });
});

describe.skipIf(onPostgres)('a database at the default path is never created beside another (SQLite)', () => {
  const timetrack = (args: string[], options: { cwd: string; env?: Record<string, string> }) =>
    execa('node', [BIN, ...args], { cwd: options.cwd, env: cleanEnv(options.env), extendEnv: false, reject: false, stdin: 'ignore', timeout: 30_000 });

  /** A migrated database with one account at `file` (set-up: the same bundle in process, docs/testing.md "How fast"). */
  async function existingDatabase(file: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    expect((await cliInProcess(file, ['migrate'])).exitCode).toBe(0);
    const created = await cliInProcess(file, ['user', 'create', '--email', 'ann@example.com', '--name', 'Ann', '--password-stdin'], { input: `${PASSWORD}\n` });
    expect(created.exitCode).toBe(0);
  }

  it('serve and migrate in a working directory that holds timetrack.db, TIMETRACK_DB unset: refused, both paths named, nothing created', async () => {
    const folder = makeTempDir('timetrack-stray-');
    expect((await cliInProcess(path.join(folder, 'timetrack.db'), ['migrate'])).exitCode).toBe(0);
    const before = fs.readdirSync(folder).sort();
    for (const args of [['serve', '--port', '0'], ['migrate']]) {
      const refused = await timetrack(args, { cwd: folder });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual([
        `timetrack: refusing to create a new, empty database at ${folder}/data/timetrack.db: TIMETRACK_DB is not set and ${folder}/timetrack.db already holds a database; ` +
          `set TIMETRACK_DB=${folder}/timetrack.db in the env file to keep using it (or TIMETRACK_DB=${folder}/data/timetrack.db to start an empty one)`,
      ]);
      expect(fs.readdirSync(folder).sort()).toEqual(before);
    }
  });

  it("under systemd (STATE_DIRECTORY) the default is the state directory's timetrack.db; one left at data/timetrack.db there is named instead of hidden", async () => {
    const state = makeTempDir('timetrack-state-');
    await existingDatabase(path.join(state, 'timetrack.db'));
    const config = await timetrack(['--json', 'config'], { cwd: '/', env: { STATE_DIRECTORY: state } });
    expect((JSON.parse(config.stdout) as { settings: { name: string; value: string }[] }).settings.find((s) => s.name === 'TIMETRACK_DB')?.value).toBe(
      path.join(state, 'timetrack.db'),
    );
    // A command that reads the account through the same bundle in process, from the same folder (docs/testing.md, "How fast").
    const listed = await runCliInProcessFrom('/', ['user', 'list'], { env: { STATE_DIRECTORY: state } });
    expect(listed.stdout).toContain('ann@example.com');

    const other = makeTempDir('timetrack-state-');
    await existingDatabase(path.join(other, 'data/timetrack.db'));
    const refused = await timetrack(['serve', '--port', '0'], { cwd: '/', env: { STATE_DIRECTORY: other } });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(
      `refusing to create a new, empty database at ${other}/timetrack.db: TIMETRACK_DB is not set and ${other}/data/timetrack.db already holds a database`,
    );
    expect(fs.existsSync(path.join(other, 'timetrack.db'))).toBe(false);
    expect(fs.existsSync(path.join(other, 'timetrack.db.lock'))).toBe(false);
  });

  it('a new database is created where TIMETRACK_DB names one, or at the default with nothing beside it, and never silently: serve warns, migrate says so', async () => {
    const folder = makeTempDir('timetrack-fresh-');
    expect((await cliInProcess(path.join(folder, 'timetrack.db'), ['migrate'])).exitCode).toBe(0);
    // TIMETRACK_DB set: the operator meant it, even beside another database.
    const named = await timetrack(['migrate'], { cwd: folder, env: { TIMETRACK_DB: path.join(folder, 'second.db') } });
    expect(named.exitCode).toBe(0);
    expect(named.stdout.split('\n')).toContain('created a new, empty database');
    // Nothing beside the default: created, and serve's log says where.
    const empty = makeTempDir('timetrack-fresh-');
    const server = execa('node', [BIN, 'serve', '--port', '0'], {
      cwd: empty,
      env: cleanEnv({ LOG_LEVEL: 'info' }),
      extendEnv: false,
      reject: false,
      all: true,
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      server.all?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('created a new, empty database')) resolve();
      });
      void server.then(() => reject(new Error(output)));
    });
    server.kill('SIGTERM');
    await server;
    const warning = output.split('\n').find((line) => line.includes('created a new, empty database'));
    expect(JSON.parse(warning ?? '{}')).toMatchObject({
      level: 40,
      database: path.join(empty, 'data/timetrack.db'),
      msg: 'created a new, empty database at the default path (TIMETRACK_DB is not set)',
    });
  });
});
