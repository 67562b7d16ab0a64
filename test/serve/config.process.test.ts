// A bad value of any setting stops `timetrack serve` with exit 1 and one clear stderr line naming it
// (docs/configuration.md). Runs the real built binary: the first case of each table of settings runs
// it, the others run `serve` in the worker through the same `main()` (refusedServeInProcess), which
// answers the binary's exit code, stdout and stderr without a node process per refusal
// (docs/testing.md, "How fast").
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { refusedServeInProcess } from '../support/cli-in-process.js';
import { makeTempDir } from '../support/app.js';
import { sharedServer, uniqueEmail } from '../support/server.js';
import { onPostgres } from '../support/database.js';

const dir = makeTempDir('timetrack-config-');
const dbPath = path.join(dir, 'timetrack.db');

/** The tables whose first case has run the binary. */
const ranBinary = new Set<string>();

/** `serve` with these settings: on the binary for the first case of `table` (and without one), in the worker for the others. */
async function serveWith(env: Record<string, string>, db: string | null = dbPath, table?: string) {
  // --port would override PORT, so PORT cases go without it.
  const port = 'PORT' in env ? [] : ['--port', '0'];
  const args = ['serve', ...port, ...(db ? ['--db', db] : [])];
  if (table === undefined || !ranBinary.has(table)) {
    if (table !== undefined) ranBinary.add(table);
    return runCli(args, { env });
  }
  return refusedServeInProcess(args, { env });
}

function expectOneLineNaming(result: { exitCode?: number; stderr: unknown; stdout: unknown }, setting: string): string {
  expect(result.exitCode).toBe(1);
  const stderr = String(result.stderr);
  const lines = stderr.split('\n').filter((line) => line.length > 0);
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toContain(setting);
  expect(lines[0]).not.toMatch(/\bat .+:\d+:\d+/); // no stack frame
  expect(String(result.stdout)).toBe('');
  return lines[0]!;
}

describe.concurrent('serve refuses bad settings', () => {
  it.each([
    ['JWT_SECRET', 'too-short-secret'],
    ['JWT_SECRET', 'a'.repeat(64)],
    ['JWT_SECRET', 'abcabcabcabcabcabcabcabcabcabcabcabc'],
    ['JWT_EXPIRATION', '24x'],
    ['JWT_EXPIRATION', '1.5h'],
    ['JWT_EXPIRATION', '0'],
    ['JWT_EXPIRATION', '-5m'],
    ['JWT_EXPIRATION', 'one day'],
    ['JWT_EXPIRATION', '9999999999d'],
    ['JWT_EXPIRATION', '400d'],
    ['NODE_ENV', 'staging'],
    ['HOST', 'not a host!'],
    ['PORT', '99999'],
    ['PORT', 'http'],
    ['LOCKOUT_ATTEMPTS', '0'],
    ['LOCKOUT_ATTEMPTS', 'five'],
    ['LOCKOUT_DURATION', '15 minutes'],
    ['RESET_TOKEN_TTL', 'soon'],
    ['RESET_TOKEN_TTL', '90d'],
    ['RATE_LIMIT_AUTH', '-1'],
    ['RATE_LIMIT_AUTH', 'many'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', 'beef'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['REGISTRATION', 'invite-only'],
    ['PUBLIC_URL', 'time.example.org'],
    ['PUBLIC_URL', 'ftp://time.example.org'],
    ['PUBLIC_URL', 'https://time.example.org/?lang=en'],
    ['PUBLIC_URL', 'https://user:pw@time.example.org'],
    ['LOG_LEVEL', 'loud'],
    ['HASH_CONCURRENCY', '0'],
    ['HASH_QUEUE_LIMIT', '-1'],
    ['HOUSEKEEPING_INTERVAL', '30d'],
    ['HOUSEKEEPING_INTERVAL', 'often'],
  ])('%s=%j', async (setting, value) => {
    const line = expectOneLineNaming(await serveWith({ [setting]: value }, dbPath, 'settings'), setting);
    if (setting === 'JWT_SECRET') expect(line).not.toContain(value);
  });

  it.each([
    ['SMTP_PORT', { SMTP_HOST: '127.0.0.1', SMTP_FROM: 'a@example.org', SMTP_PORT: 'smtp' }],
    ['SMTP_PORT', { SMTP_HOST: '127.0.0.1', SMTP_FROM: 'a@example.org', SMTP_PORT: '70000' }],
    ['SMTP_FROM', { SMTP_HOST: '127.0.0.1' }],
    ['SMTP_FROM', { SMTP_HOST: '127.0.0.1', SMTP_FROM: 'nobody' }],
    ['SMTP_HOST', { SMTP_HOST: 'mail server', SMTP_FROM: 'a@example.org' }],
    ['SMTP_HOST', { SMTP_FROM: 'a@example.org' }],
    ['SMTP_HOST', { SMTP_USER: 'mailer', SMTP_PASSWORD: 'hunter2-hunter2' }],
    ['SMTP_PASSWORD', { SMTP_HOST: '127.0.0.1', SMTP_FROM: 'a@example.org', SMTP_PASSWORD: 'hunter2-hunter2' }],
  ])('%s in %j', async (setting, env) => {
    const line = expectOneLineNaming(await serveWith(env, dbPath, 'mail settings'), setting);
    expect(line).not.toContain('hunter2');
  });

  it.skipIf(onPostgres)('TIMETRACK_DB that is a directory (SQLite: skipped on PostgreSQL)', async () => {
    expectOneLineNaming(await serveWith({ TIMETRACK_DB: dir }, null), 'TIMETRACK_DB');
  });

  it.skipIf(onPostgres)('TIMETRACK_DB that is not a database (SQLite: skipped on PostgreSQL)', async () => {
    const notADatabase = path.join(dir, 'notes.txt');
    fs.writeFileSync(notADatabase, 'these are not the pages you are looking for\n'.repeat(200));
    expectOneLineNaming(await serveWith({ TIMETRACK_DB: notADatabase }, null), 'TIMETRACK_DB');
  });

  it.skipIf(onPostgres)('a damaged generated secret file (SQLite: skipped on PostgreSQL)', async () => {
    // An install whose database exists (serve warns when it creates one) and whose secret file is damaged.
    const db = path.join(makeTempDir('timetrack-config-'), 'timetrack.db');
    expect((await runCli(['migrate', '--db', db])).exitCode).toBe(0);
    fs.writeFileSync(`${db}.jwt-secret`, 'not hex\n', { mode: 0o600 });
    expectOneLineNaming(await serveWith({}, db), 'secret file');
  });

  it('a bad value read from --env-file', async () => {
    const envFile = path.join(dir, 'bad.env');
    fs.writeFileSync(envFile, 'JWT_EXPIRATION=tomorrow\n');
    const result = await runCli(['--env-file', envFile, 'serve', '--port', '0', '--db', dbPath]);
    expectOneLineNaming(result, 'JWT_EXPIRATION');
  });
});

describe('dev mode', () => {
  it('refuses to start on a non-loopback address, with one line naming HOST', async () => {
    const result = await runCli(['serve', '--port', '0', '--db', dbPath, '--dev', '--host', '0.0.0.0']);
    expect(expectOneLineNaming(result, 'HOST')).toContain('dev mode');
  });

  it('refuses to start behind a proxy: TRUST_PROXY set, or a PUBLIC_URL that is https or not loopback', async () => {
    // The case above ran the binary: these refusals of the same rule run in the worker.
    expectOneLineNaming(await refusedServeInProcess(['serve', '--port', '0', '--db', dbPath, '--dev'], { env: { TRUST_PROXY: '127.0.0.1' } }), 'TRUST_PROXY');
    expectOneLineNaming(
      await refusedServeInProcess(['serve', '--port', '0', '--db', dbPath, '--dev'], { env: { PUBLIC_URL: 'https://time.example.org' } }),
      'PUBLIC_URL',
    );
  });

  // One `--dev` server for the cases that only talk to it.
  const devServer = sharedServer({}, ['--dev']);

  it('answers a reset token only to a request that did not come through a proxy (the documented same-host reverse proxy included)', async () => {
    const { server } = await devServer();
    const email = uniqueEmail();
    const registered = await fetch(`${server.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery staple', full_name: 'Ann' }),
    });
    expect(registered.status).toBe(201);
    const ask = async (headers: Record<string, string>) =>
      (await (
        await fetch(`${server.baseUrl}/api/auth/request-reset`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ email }),
        })
      ).json()) as Record<string, unknown>;
    expect(await ask({})).toHaveProperty('reset_token');
    const proxied: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
      { via: '1.1 caddy' },
    ];
    for (const header of proxied) {
      expect(await ask(header), JSON.stringify(header)).toEqual({ message: expect.any(String), delivery: 'terminal' });
    }
  });

  it('warns loudly when it is on', async () => {
    const { server } = await devServer();
    // Logged just after "Server listening", which is what startServer waits for.
    for (let i = 0; i < 100 && !server.output().includes('DEV MODE IS ON'); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.output()).toContain('DEV MODE IS ON');
  });
});
