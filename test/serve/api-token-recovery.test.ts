// Every recovery step ends the account's API tokens too, through a real `timetrack serve` and the built
// CLI (docs/security.md, "API tokens"; docs/api.md, "API tokens"): a token made by whoever held the
// account must not outlive a reset, a new password or a disabled account.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';
import { cli } from '../support/cli-accounts.js';
import { resetLinkOf, startSmtpServer } from '../support/smtp.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

const NEW_PASSWORD = 'another fine passphrase';

async function serve(env: Record<string, string> = {}): Promise<{ server: RunningServer; dbPath: string }> {
  const dbPath = path.join(makeTempDir(), 'timetrack.db');
  const server = await startServer(dbPath, env);
  running.push(server);
  return { server, dbPath };
}

async function call(
  server: RunningServer,
  method: string,
  url: string,
  options: { body?: unknown; token?: string } = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Registers ann, signs in and makes an API token; answers the session and the token (checked to work). */
async function accountWithToken(server: RunningServer): Promise<{ session: string; apiToken: string }> {
  expect((await call(server, 'POST', '/api/auth/register', { body: { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' } })).status).toBe(201);
  const login = await call(server, 'POST', '/api/auth/login', { body: { email: 'ann@example.com', password: PASSWORD } });
  expect(login.status).toBe(200);
  const session = login.body.token as string;
  const created = await call(server, 'POST', '/api/auth/api-tokens', {
    token: session,
    body: { name: 'left by an intruder', expires_in_days: 365, password: PASSWORD },
  });
  expect(created.status).toBe(201);
  const apiToken = created.body.token as string;
  expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(200);
  return { session, apiToken };
}

describe('recovery ends API tokens, against a real server', () => {
  it('change-password ends every API token of the account (the calling session stays)', async () => {
    const { server } = await serve();
    const { session, apiToken } = await accountWithToken(server);
    const changed = await call(server, 'POST', '/api/auth/change-password', { token: session, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(changed.status).toBe(200);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: session })).status).toBe(200);
  });

  it('`user set-password` through the built CLI ends every API token', async () => {
    const { server, dbPath } = await serve();
    const { apiToken } = await accountWithToken(server);
    const result = await cli(dbPath, ['user', 'set-password', 'ann@example.com', '--password-stdin'], { input: `${NEW_PASSWORD}\n` });
    expect(result.exitCode).toBe(0);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    expect(JSON.parse((await cli(dbPath, ['--json', 'token', 'list', '--api'])).stdout as string)).toEqual({ api_tokens: [] });
  });

  it('`user disable` through the built CLI ends every API token; `user enable` does not bring one back', async () => {
    const { server, dbPath } = await serve();
    const { apiToken } = await accountWithToken(server);
    expect((await cli(dbPath, ['user', 'disable', 'ann@example.com'])).exitCode).toBe(0);
    expect((await cli(dbPath, ['user', 'enable', 'ann@example.com'])).exitCode).toBe(0);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    expect(JSON.parse((await cli(dbPath, ['--json', 'token', 'list', '--api'])).stdout as string)).toEqual({ api_tokens: [] });
  });

  it('`token revoke --user` and `--all` through the built CLI end API tokens too, and say how many', async () => {
    const { server, dbPath } = await serve();
    const { apiToken } = await accountWithToken(server);
    const byUser = await cli(dbPath, ['--json', 'token', 'revoke', '--user', 'ann@example.com']);
    expect([byUser.exitCode, JSON.parse(byUser.stdout as string)]).toEqual([0, { revoked: 1, revoked_api_tokens: 1 }]);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    const login = await call(server, 'POST', '/api/auth/login', { body: { email: 'ann@example.com', password: PASSWORD } });
    const again = await call(server, 'POST', '/api/auth/api-tokens', {
      token: login.body.token,
      body: { name: 'second', expires_in_days: 30, password: PASSWORD },
    });
    expect(again.status).toBe(201);
    const all = await cli(dbPath, ['token', 'revoke', '--all']);
    expect(String(all.stdout)).toMatch(/^revoked 1 session\(s\) and 1 API token\(s\)$/m);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: again.body.token })).status).toBe(401);
  });

  it('a password reset by e-mail link ends every API token', async () => {
    const smtp = await startSmtpServer();
    try {
      const { server } = await serve({
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_FROM: 'timetrack@example.org',
        PUBLIC_URL: 'https://time.example.org',
      });
      const { apiToken } = await accountWithToken(server);
      expect((await call(server, 'POST', '/api/auth/request-reset', { body: { email: 'ann@example.com' } })).status).toBe(200);
      const resetToken = resetLinkOf(await smtp.waitForMessage()).searchParams.get('token')!;
      expect((await call(server, 'POST', '/api/auth/reset-password', { body: { token: resetToken, new_password: NEW_PASSWORD } })).status).toBe(200);
      expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    } finally {
      await smtp.close();
    }
  });
});

describe('the audit trail, against a real server', () => {
  it('"sign out all other devices" that revokes nothing writes no audit row; one that revokes writes one', async () => {
    const { server, dbPath } = await serve();
    const { session } = await accountWithToken(server);
    const auditActions = async (): Promise<string[]> =>
      (JSON.parse((await cli(dbPath, ['--json', 'audit', 'list'])).stdout as string) as { events: Array<{ action: string }> }).events.map(
        (event) => event.action,
      );
    const before = await auditActions();
    for (let i = 0; i < 5; i++) expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session })).body).toEqual({ revoked: 0 });
    expect(await auditActions()).toEqual(before);
    expect((await call(server, 'POST', '/api/auth/login', { body: { email: 'ann@example.com', password: PASSWORD } })).status).toBe(200);
    expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session })).body).toEqual({ revoked: 1 });
    expect((await auditActions()).filter((action) => action === 'sessions_revoked')).toHaveLength(
      before.filter((action) => action === 'sessions_revoked').length + 1,
    );
  });
});
