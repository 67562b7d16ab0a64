// Upgrading without losing a write: 0.2.0, built from the commit it was released from, runs while a
// client writes entries in a loop, and the documented upgrade switches to this checkout's build.
// SQLite: 0.2.0 installed the way its docs said (/usr/lib/node_modules/timetrack), then
// docs/operations.md's blocks run line by line under a temporary root ("From 0.2.0 installed in …",
// "A release tarball, switched by a link", "Going back"), with systemctl played by the unit file. The
// installed `timetrack` is run through the real links (/usr/bin/timetrack → current → the release's
// folder). PostgreSQL: two 0.2.0 processes behind a client that moves on from a process answering 503
// or refusing, a new process started beside them (it migrates), then the old ones stopped. Every
// write answered 201 is there afterwards; no answer was a 500 (a 503 carries Retry-After).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { execa, type ResultPromise } from 'execa';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { BIN, cleanEnv, PROJECT_ROOT } from '../support/cli.js';
import { createPostgresDatabase, onPostgres, TEST_JWT_SECRET } from '../support/database.js';
import { freePort } from '../support/server.js';
import { gitHas, shellBlockAfter, SimulatedHost } from '../support/simulated-host.js';
import { startWriters, type Writers } from '../support/writer-loop.js';

/** The commit 0.2.0 was released from: package.json first said 0.2.0 and CHANGELOG.md released it there. */
export const RELEASE_0_2_0 = '5035804';
/** The new release's folder name in the recipes' `<version>` (this checkout's version may still say 0.2.0). */
const NEXT = 'next';

export const history020 = gitHas(RELEASE_0_2_0);
if (!history020) console.log(`Upgrade switch test skipped: commit ${RELEASE_0_2_0} (release 0.2.0) is not in this clone's history (a shallow clone?)`);

/** 0.2.0 built from git into `folder` (its own build script, on this checkout's node_modules). */
export async function build020(folder: string): Promise<void> {
  fs.mkdirSync(folder, { recursive: true });
  const archive = execFileSync('git', ['archive', RELEASE_0_2_0], { cwd: PROJECT_ROOT, maxBuffer: 256 * 1024 * 1024 });
  await execa('tar', ['-x', '-C', folder], { input: archive });
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(folder, 'node_modules'));
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string };
  expect(manifest.version).toBe('0.2.0');
  expect(fs.readFileSync(path.join(folder, 'CHANGELOG.md'), 'utf8')).toMatch(/^## 0\.2\.0$/m);
  await execa('node', ['scripts/build.mjs'], { cwd: folder, env: cleanEnv(), extendEnv: false });
}

/** This checkout's build as a release folder: what the tarball holds that runs (bin, dist, config, package.json), on its node_modules. */
function installThisBuild(folder: string): void {
  fs.mkdirSync(folder, { recursive: true });
  for (const part of ['bin', 'dist', 'config', 'package.json']) fs.cpSync(path.join(PROJECT_ROOT, part), path.join(folder, part), { recursive: true });
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(folder, 'node_modules'));
}

/** A machine under a temporary root, systemctl played by the installed unit file. */
class Machine extends SimulatedHost {
  constructor(private readonly built020: string) {
    super('timetrack-switch-');
  }

  map(text: string): string {
    return text.replace(
      /(?<![\w/.-])\/(var\/lib\/timetrack|etc\/timetrack|etc\/systemd\/system|usr\/lib\/timetrack|usr\/lib\/node_modules\/timetrack|usr\/bin\/timetrack)/g,
      `${this.root}/$1`,
    );
  }

  /** 0.2.0 installed as its docs said: the folder, the link, the unit, the env file. */
  install020(): void {
    fs.cpSync(this.built020, this.map('/usr/lib/node_modules/timetrack'), { recursive: true, verbatimSymlinks: true });
    fs.mkdirSync(path.dirname(this.map('/usr/bin/timetrack')), { recursive: true });
    fs.symlinkSync(this.map('/usr/lib/node_modules/timetrack/bin/timetrack.cjs'), this.map('/usr/bin/timetrack'));
    fs.mkdirSync(this.map('/var/lib/timetrack'), { recursive: true, mode: 0o700 });
    fs.mkdirSync(this.map('/etc/timetrack'), { recursive: true });
    fs.mkdirSync(this.map('/etc/systemd/system'), { recursive: true });
    const env = fs.readFileSync(this.map('/usr/lib/node_modules/timetrack/config/timetrack.example.env'), 'utf8');
    fs.writeFileSync(this.map('/etc/timetrack/timetrack.env'), `${this.map(env)}\nPORT=${this.port}\n`, { mode: 0o640 });
    fs.copyFileSync(this.map('/usr/lib/node_modules/timetrack/config/timetrack.service'), this.map('/etc/systemd/system/timetrack.service'));
  }

  /** `systemctl start timetrack`: the unit's ExecStart (/usr/bin/timetrack serve) through the real links. */
  async start(): Promise<void> {
    const unit = fs.readFileSync(this.map('/etc/systemd/system/timetrack.service'), 'utf8');
    const value = (key: string) => unit.split('\n').flatMap((line) => new RegExp(`^${key}=(.*)$`).exec(line.trim())?.[1] ?? [])[0]!;
    const env: Record<string, string> = { ...parseEnv(fs.readFileSync(this.map(value('EnvironmentFile')), 'utf8')) } as Record<string, string>;
    env.STATE_DIRECTORY = this.map('/var/lib/timetrack');
    expect(value('ExecStart')).toBe('/usr/bin/timetrack serve');
    const { LOG_LEVEL: _level, ...base } = cleanEnv();
    await this.launch([this.map('/usr/bin/timetrack'), 'serve'], this.map(value('WorkingDirectory')), { ...base, ...env });
  }

  /** One line of a docs block, as root (who plays the service's user too). */
  async run(line: string): Promise<{ stdout: string }> {
    const command = line
      .replace(/\s+#.*$/, '')
      .replaceAll('<version>', NEXT)
      .replaceAll('<previous>', '0.2.0');
    if (command === 'systemctl stop timetrack') return this.stop().then(() => ({ stdout: '' }));
    if (command === 'systemctl start timetrack') return this.start().then(() => ({ stdout: '' }));
    // The tarball's unpacking and `npm ci`: this checkout's build as the release's folder.
    const unpack = /^mkdir -p (\S+) && tar -xzf \.\/timetrack-\S+\.tgz --strip-components=1 -C (\S+)$/.exec(command);
    if (unpack) return Promise.resolve(installThisBuild(this.map(unpack[2]!))).then(() => ({ stdout: '' }));
    if (/^npm ci --prefix /.test(command)) return { stdout: '' };
    const curl = /^curl -s http:\/\/127\.0\.0\.1:8080(\/\S+)$/.exec(command);
    if (curl) return { stdout: await (await fetch(`${this.baseUrl()}${curl[1]}`)).text() };
    const shell = this.map(command)
      .replace(/^sudo -u timetrack timetrack /, `node ${this.map('/usr/bin/timetrack')} `)
      .replace(/^sudo -u timetrack (\S+\.cjs) /, 'node $1 ')
      .replace(' -o timetrack -g timetrack ', ' ');
    if (shell.includes(PROJECT_ROOT)) throw new Error(`a docs step reaches outside the test's root: ${shell}`);
    const result = await execa('sh', ['-ec', shell], { cwd: this.root, env: cleanEnv({ HOME: this.root }), extendEnv: false, reject: false, stdin: 'ignore' });
    if (result.exitCode !== 0) throw new Error(`docs step failed: ${line}\n${result.stderr}`);
    return { stdout: result.stdout };
  }
}

let built020: string | undefined;
let machine: Machine | undefined;
let writers: Writers | undefined;
afterEach(async () => {
  await writers?.stop();
  await machine?.stop();
  machine = undefined;
  writers = undefined;
});

beforeAll(async () => {
  if (!history020) return;
  built020 = path.join(makeTempDir('timetrack-0.2.0-'), 'timetrack');
  await build020(built020);
}, 180_000);

describe.skipIf(onPostgres || !history020)('upgrading 0.2.0 by switching the link, while a client writes (SQLite)', () => {
  it('docs/operations.md: 0.2.0 gets its folder and link, the new release is switched in and migrated, no acknowledged write is lost and nothing answered 500; going back brings 0.2.0 and the backup back', async () => {
    machine = new Machine(built020!);
    const m = machine;
    m.port = await freePort();
    m.install020();
    await m.start();
    writers = await startWriters([m.baseUrl()], { email: 'ann@example.com', password: PASSWORD });
    await writers.waitForAcknowledged(5);

    for (const step of shellBlockAfter('**From 0.2.0 installed in `/usr/lib/node_modules/timetrack`**')) await m.run(step);
    expect(fs.readlinkSync(m.map('/usr/lib/timetrack/current'))).toBe('0.2.0');

    const steps = shellBlockAfter('### A release tarball, switched by a link');
    const stop = steps.indexOf('systemctl stop timetrack');
    expect(stop).toBeGreaterThan(0);
    let acknowledgedBeforeBackup = 0;
    let health = '';
    for (const [index, step] of steps.entries()) {
      if (step.includes(' backup ')) acknowledgedBeforeBackup = writers.acknowledged().length;
      if (index === stop) {
        // Before the stop, the new migrate refuses: the running 0.2.0 holds the file.
        const refused = await execa('node', [m.map('/usr/bin/timetrack'), '--env-file', m.map('/etc/timetrack/timetrack.env'), 'migrate'], {
          env: cleanEnv(),
          extendEnv: false,
          reject: false,
        });
        expect(refused.exitCode).toBe(1);
        expect(refused.stderr.trim()).toMatch(
          /^timetrack: stop the running 0\.2\.0 server first: timetrack serve \(pid \d+, 0\.2\.0 or older: it does not record its version\) is using .*timetrack\.db and would not know its new schema/,
        );
        await writers.waitForAcknowledged(writers.acknowledged().length + 3);
      }
      const { stdout } = await m.run(step);
      if (step.startsWith('curl ')) health = stdout;
      if (step.includes(' migrate --status')) expect(stdout).toMatch(/20261126233000_server_processes\s+pending/);
    }
    await writers.waitForAcknowledged(writers.acknowledged().length + 5);
    const report = await writers.stop();
    expect(report.failures).toEqual([]);
    expect(report.acknowledged.length).toBeGreaterThan(acknowledgedBeforeBackup);
    // The new build serves (its commit; 0.2.0 built outside git says `unknown`), through the link.
    expect(JSON.parse(health)).toMatchObject({ status: 'ok', engine: 'sqlite' });
    expect(JSON.parse(health).commit).not.toBe('unknown');
    expect(fs.readlinkSync(m.map('/usr/lib/timetrack/current'))).toBe(NEXT);
    expect(await report.missing(m.baseUrl())).toEqual([]);

    // Going back: 0.2.0 and the backup made before the upgrade.
    for (const step of shellBlockAfter('**Going back**')) await m.run(step);
    const back = JSON.parse((await m.run('curl -s http://127.0.0.1:8080/api/health')).stdout) as { commit: string };
    expect(back.commit).toBe('unknown');
    const kept = report.acknowledged.slice(0, acknowledgedBeforeBackup);
    expect(await report.missing(m.baseUrl(), kept)).toEqual([]);
  });
});

/** A `serve` on PostgreSQL from `bin` (0.2.0's or this build's), on `port`. */
function serveOnPostgres(bin: string, url: string, port: number): { child: ResultPromise; output: () => string } {
  const child = execa('node', [bin, '--database-url', url, 'serve', '--port', String(port)], {
    env: cleanEnv({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info', RATE_LIMIT_AUTH: '0' }),
    extendEnv: false,
    reject: false,
    all: true,
    stdin: 'ignore',
  });
  let output = '';
  child.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function healthOf(port: number): Promise<{ status: number; body?: { status: string; commit: string; reason?: string } }> {
  return fetch(`http://127.0.0.1:${port}/api/health`).then(
    async (response) => ({ status: response.status, body: (await response.json()) as { status: string; commit: string } }),
    () => ({ status: 0 }),
  );
}

describe.runIf(onPostgres && history020)('upgrading two 0.2.0 processes on PostgreSQL while a client writes', () => {
  it('docs/operations.md "Several processes on PostgreSQL": a new process started beside them migrates, the old ones are stopped; no acknowledged write is lost, nothing answered 500', async () => {
    const url = createPostgresDatabase('switch');
    const ports = [await freePort(), await freePort(), await freePort()];
    const bin020 = path.join(built020!, 'bin/timetrack.cjs');
    const old = [serveOnPostgres(bin020, url, ports[0]!)];
    await expect.poll(async () => (await healthOf(ports[0]!)).status, { timeout: 30_000, interval: 100 }).toBe(200);
    old.push(serveOnPostgres(bin020, url, ports[1]!));
    const processes = [...old];
    try {
      await expect.poll(async () => (await healthOf(ports[1]!)).status, { timeout: 30_000, interval: 100 }).toBe(200);
      expect((await healthOf(ports[0]!)).body?.commit).toBe('unknown');
      // The load balancer knows the new process's address from the start: refused until it listens.
      writers = await startWriters(
        ports.map((port) => `http://127.0.0.1:${port}`),
        { email: 'ann@example.com', password: PASSWORD },
      );
      await writers.waitForAcknowledged(10);

      // The new release's process, beside the old ones: it migrates (0.2.0 announces nothing).
      const next = serveOnPostgres(BIN, url, ports[2]!);
      processes.push(next);
      await expect.poll(() => next.output().includes('Server listening'), { timeout: 60_000, interval: 100 }).toBe(true);
      expect(next.output()).toContain('20261126233000_server_processes');
      expect((await healthOf(ports[2]!)).body?.commit).not.toBe('unknown');
      await writers.waitForAcknowledged(writers.acknowledged().length + 10);

      // Then the old ones are stopped, and the client goes on with the new one.
      for (const process of old) {
        process.child.kill('SIGTERM');
        await process.child;
      }
      await writers.waitForAcknowledged(writers.acknowledged().length + 10);
      const report = await writers.stop();
      expect(report.failures).toEqual([]);
      expect(await report.missing(`http://127.0.0.1:${ports[2]}`)).toEqual([]);
    } finally {
      for (const process of processes) {
        process.child.kill('SIGTERM');
        await process.child;
      }
    }
  });
});
