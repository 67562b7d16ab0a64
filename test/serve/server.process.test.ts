// The account and session rules against real `timetrack serve` processes over real sockets: restarts, parallel logins, lockout, rate limit, reset mail, logout across processes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { account, makeTempDir, PASSWORD } from '../support/app.js';
import { createMigratedSqliteDatabase, onPostgres } from '../support/database.js';
import { sharedMailingServer } from '../support/mailing-server.js';
import { login, register, request } from '../support/requests.js';
import { startServer, uniqueEmail, type RunningServer } from '../support/server.js';
import { resetLinkOf } from '../support/smtp.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function serve(dbPath: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(dbPath, env);
  running.push(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  running.splice(running.indexOf(server), 1);
  expect((await server.stop()).exitCode).toBe(0);
}

const registerAndLogin = async (server: RunningServer) => {
  await register(server);
  return login(server);
};

describe('timetrack serve', () => {
  // The cases with the default settings that need no database of their own share one server (with mail).
  const defaults = sharedMailingServer();

  it.skipIf(onPostgres)('keeps sessions over a restart with the generated secret file (mode 0600) (SQLite: skipped on PostgreSQL)', async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    const first = await serve(dbPath);
    const token = await registerAndLogin(first);
    const secretFile = `${dbPath}.jwt-secret`;
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(secretFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    await stop(first);
    // A restore from a backup may widen the mode; the next start narrows it again.
    fs.chmodSync(secretFile, 0o644);
    const second = await serve(dbPath);
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    const me = await request(second, 'GET', '/api/auth/me', { token: token });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('ann@example.com');
  });

  it('50 parallel wrong logins over real sockets: at most 4 answers 401, the rest 423; then locked', async () => {
    const { server } = await defaults();
    const email = uniqueEmail();
    await register(server, account({ email }));
    await login(server, email);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => request(server, 'POST', '/api/auth/login', { payload: { email, password: 'a wrong password' } })),
    );
    const unauthorized = responses.filter((r) => r.statusCode === 401).length;
    expect(unauthorized).toBeLessThanOrEqual(4);
    expect(responses.filter((r) => r.statusCode === 423).length).toBe(50 - unauthorized);
    for (const response of responses.filter((r) => r.statusCode === 423)) {
      expect(response.json().code).toBe('ACCOUNT_LOCKED');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).statusCode).toBe(423);
  });

  it('after LOCKOUT_DURATION the correct password works again and the count restarts', async () => {
    const server = await serve(path.join(makeTempDir(), 'timetrack.db'), { LOCKOUT_DURATION: '2s' });
    await registerAndLogin(server);
    const wrong = () => request(server, 'POST', '/api/auth/login', { payload: { email: 'ann@example.com', password: 'a wrong password' } });
    for (let i = 0; i < 4; i += 1) expect((await wrong()).statusCode).toBe(401);
    expect((await wrong()).statusCode).toBe(423);
    expect((await request(server, 'POST', '/api/auth/login', { payload: { email: 'ann@example.com', password: PASSWORD } })).statusCode).toBe(423);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await request(server, 'POST', '/api/auth/login', { payload: { email: 'ann@example.com', password: PASSWORD } })).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await wrong()).statusCode).toBe(401);
  });

  it('RATE_LIMIT_AUTH=3: the 4th login in a minute is 429 RATE_LIMITED with Retry-After', async () => {
    const server = await serve(path.join(makeTempDir(), 'timetrack.db'), { RATE_LIMIT_AUTH: '3' });
    for (let i = 0; i < 3; i += 1)
      expect((await request(server, 'POST', '/api/auth/login', { payload: { email: 'x@example.com', password: 'wrong password' } })).statusCode).toBe(401);
    const limited = await request(server, 'POST', '/api/auth/login', { payload: { email: 'x@example.com', password: 'wrong password' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['cache-control']).toBe('no-store');
  });

  it.skipIf(onPostgres)(
    'sends the reset e-mail to a real SMTP server; its link works; the database and WAL hold no clear-text secret (SQLite: skipped on PostgreSQL)',
    async () => {
      const { server, dbPath, smtp } = await defaults();
      const email = uniqueEmail();
      await register(server, account({ email }));
      const token = await login(server, email);
      const resetRequest = await request(server, 'POST', '/api/auth/request-reset', { payload: { email } });
      expect(resetRequest.statusCode).toBe(200);
      expect(Object.keys(resetRequest.json())).toEqual(['message', 'delivery']);
      const mail = await smtp.waitForMessageTo(email);
      expect(mail.to).toEqual([email]);
      const link = resetLinkOf(mail);
      expect(`${link.origin}${link.pathname}`).toBe('https://time.example.org/password-reset');
      const resetToken = link.searchParams.get('token')!;
      const newPassword = 'a brand new passphrase';
      expect((await request(server, 'POST', '/api/auth/reset-password', { payload: { token: resetToken, new_password: newPassword } })).statusCode).toBe(200);
      expect((await request(server, 'GET', '/api/auth/me', { token: token })).statusCode).toBe(401);
      const second = await request(server, 'POST', '/api/auth/login', { payload: { email, password: newPassword } });
      expect(second.statusCode).toBe(200);

      // Raw bytes while the server still runs: the WAL holds the recent writes.
      const files = [dbPath, `${dbPath}-wal`].filter((file) => fs.existsSync(file));
      expect(files).toContain(`${dbPath}-wal`);
      const bytes = Buffer.concat(files.map((file) => fs.readFileSync(file)));
      expect(bytes.includes(Buffer.from('$argon2id$'))).toBe(true); // the hashes are there, so the files are the right ones
      for (const secret of [PASSWORD, newPassword, token, second.json().token, resetToken, token.split('.')[2]!]) {
        expect(bytes.includes(Buffer.from(secret)), 'clear-text secret in the database files').toBe(false);
      }
      expect(server.output()).not.toContain(resetToken);
      expect(server.output()).not.toContain(PASSWORD);
    },
  );

  // Several serve processes share only a PostgreSQL database: a SQLite file has one server (flock, test/deploy/server-lock.process.test.ts).
  it.runIf(onPostgres)(
    'a logout on one process takes effect at once on another process using the same database (several servers: PostgreSQL only)',
    async () => {
      const dbPath = path.join(makeTempDir(), 'timetrack.db');
      const first = await serve(dbPath);
      const second = await serve(dbPath);
      const token = await registerAndLogin(first);
      // The second process has verified the token once (and may remember the signature).
      expect((await request(second, 'GET', '/api/auth/me', { token: token })).statusCode).toBe(200);
      expect((await request(first, 'POST', '/api/auth/logout', { token: token })).statusCode).toBe(200);
      const after = await request(second, 'GET', '/api/auth/me', { token: token });
      expect(after.statusCode).toBe(401);
      expect(after.headers['www-authenticate']).toBe('Bearer');
    },
  );

  it('answers /api/health and /api/openapi.json', async () => {
    const { server } = await defaults();
    const health = await request(server, 'GET', '/api/health');
    expect({ status: health.statusCode, body: health.json() }).toEqual({
      status: 200,
      body: { status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/), commit: expect.any(String), engine: expect.any(String) },
    });
    const doc = await request(server, 'GET', '/api/openapi.json');
    expect(doc.json().openapi).toMatch(/^3\./);
    expect(Object.keys(doc.json().paths)).toContain('/api/auth/login');
  });
});

describe('database file modes', () => {
  it.skipIf(onPostgres)(
    'narrows a restored database file (and so its -wal) to 0600, and warns about an open folder (SQLite: skipped on PostgreSQL)',
    async () => {
      const dir = makeTempDir();
      const dbPath = path.join(dir, 'timetrack.db');
      await createMigratedSqliteDatabase(dbPath);
      // A restore from a backup (or a copy) with a wide mode, in a folder others can enter.
      fs.chmodSync(dbPath, 0o644);
      fs.chmodSync(dir, 0o755);
      const second = await serve(dbPath);
      await registerAndLogin(second);
      expect(fs.statSync(dbPath).mode & 0o777).toBe(0o600);
      expect(fs.statSync(`${dbPath}-wal`).mode & 0o777).toBe(0o600);
      expect(second.output()).toContain('the database folder is accessible to its group or others');
    },
  );
});
