// The account and session rules against real `timetrack serve` processes over real sockets: restarts, parallel logins, lockout, rate limit, reset mail, logout across processes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';
import { resetLinkOf, startSmtpServer } from '../support/smtp.js';

const PASSWORD = 'correct horse battery staple';
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

async function call(server: RunningServer, method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const registerAndLogin = async (server: RunningServer) => {
  expect((await call(server, 'POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
  const login = await call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
  expect(login.status).toBe(200);
  return login.body.token as string;
};

describe('timetrack serve', () => {
  it('keeps sessions over a restart with the generated secret file (mode 0600)', async () => {
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
    const me = await call(second, 'GET', '/api/auth/me', undefined, token);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('ann@example.com');
  });

  it('50 parallel wrong logins over real sockets: at most 4 answers 401, the rest 423; then locked', async () => {
    const server = await serve(path.join(makeTempDir(), 'timetrack.db'));
    await registerAndLogin(server);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: 'a wrong password' })),
    );
    const unauthorized = responses.filter((r) => r.status === 401).length;
    expect(unauthorized).toBeLessThanOrEqual(4);
    expect(responses.filter((r) => r.status === 423).length).toBe(50 - unauthorized);
    for (const response of responses.filter((r) => r.status === 423)) {
      expect(response.body.code).toBe('ACCOUNT_LOCKED');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).status).toBe(423);
  });

  it('after LOCKOUT_DURATION the correct password works again and the count restarts', async () => {
    const server = await serve(path.join(makeTempDir(), 'timetrack.db'), { LOCKOUT_DURATION: '2s' });
    await registerAndLogin(server);
    const wrong = () => call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: 'a wrong password' });
    for (let i = 0; i < 4; i += 1) expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(423);
    expect((await call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).status).toBe(423);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect((await call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await wrong()).status).toBe(401);
  });

  it('RATE_LIMIT_AUTH=3: the 4th login in a minute is 429 RATE_LIMITED with Retry-After', async () => {
    const server = await serve(path.join(makeTempDir(), 'timetrack.db'), { RATE_LIMIT_AUTH: '3' });
    for (let i = 0; i < 3; i += 1) expect((await call(server, 'POST', '/api/auth/login', { email: 'x@example.com', password: 'wrong password' })).status).toBe(401);
    const limited = await call(server, 'POST', '/api/auth/login', { email: 'x@example.com', password: 'wrong password' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('cache-control')).toBe('no-store');
  });

  it('sends the reset e-mail to a real SMTP server; its link works; the database and WAL hold no clear-text secret', async () => {
    const smtp = await startSmtpServer();
    try {
      const dbPath = path.join(makeTempDir(), 'timetrack.db');
      const server = await serve(dbPath, {
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_FROM: 'timetrack@example.org',
        PUBLIC_URL: 'https://time.example.org',
      });
      const token = await registerAndLogin(server);
      const request = await call(server, 'POST', '/api/auth/request-reset', { email: 'ann@example.com' });
      expect(request.status).toBe(200);
      expect(Object.keys(request.body)).toEqual(['message']);
      const mail = await smtp.waitForMessage();
      expect(mail.to).toEqual(['ann@example.com']);
      const link = resetLinkOf(mail);
      expect(`${link.origin}${link.pathname}`).toBe('https://time.example.org/password-reset');
      const resetToken = link.searchParams.get('token')!;
      const newPassword = 'a brand new passphrase';
      expect((await call(server, 'POST', '/api/auth/reset-password', { token: resetToken, new_password: newPassword })).status).toBe(200);
      expect((await call(server, 'GET', '/api/auth/me', undefined, token)).status).toBe(401);
      const second = await call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: newPassword });
      expect(second.status).toBe(200);

      // Raw bytes while the server still runs: the WAL holds the recent writes.
      const files = [dbPath, `${dbPath}-wal`].filter((file) => fs.existsSync(file));
      expect(files).toContain(`${dbPath}-wal`);
      const bytes = Buffer.concat(files.map((file) => fs.readFileSync(file)));
      expect(bytes.includes(Buffer.from('$argon2id$'))).toBe(true); // the hashes are there, so the files are the right ones
      for (const secret of [PASSWORD, newPassword, token, second.body.token, resetToken, token.split('.')[2]!]) {
        expect(bytes.includes(Buffer.from(secret)), 'clear-text secret in the database files').toBe(false);
      }
      expect(server.output()).not.toContain(resetToken);
      expect(server.output()).not.toContain(PASSWORD);
    } finally {
      await smtp.close();
    }
  });

  it('a logout on one process takes effect at once on another process using the same database', async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    const first = await serve(dbPath);
    const second = await serve(dbPath);
    const token = await registerAndLogin(first);
    // The second process has verified the token once (and may remember the signature).
    expect((await call(second, 'GET', '/api/auth/me', undefined, token)).status).toBe(200);
    expect((await call(first, 'POST', '/api/auth/logout', undefined, token)).status).toBe(200);
    const after = await call(second, 'GET', '/api/auth/me', undefined, token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers /api/health and /api/openapi.json', async () => {
    const server = await serve(path.join(makeTempDir(), 'timetrack.db'));
    expect(await call(server, 'GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const doc = await call(server, 'GET', '/api/openapi.json');
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toContain('/api/auth/login');
  });
});

describe('database file modes', () => {
  it('narrows a restored database file (and so its -wal) to 0600, and warns about an open folder', async () => {
    const dir = makeTempDir();
    const dbPath = path.join(dir, 'timetrack.db');
    const first = await serve(dbPath);
    await stop(first);
    // A restore from a backup (or a copy) with a wide mode, in a folder others can enter.
    fs.chmodSync(dbPath, 0o644);
    fs.chmodSync(dir, 0o755);
    const second = await serve(dbPath);
    await registerAndLogin(second);
    expect(fs.statSync(dbPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${dbPath}-wal`).mode & 0o777).toBe(0o600);
    expect(second.output()).toContain('the database folder is accessible to its group or others');
  });
});
