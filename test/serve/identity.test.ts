// The identity features through a real `timetrack serve` over HTTP (docs/api.md, "Your sessions",
// "API tokens", "Two-factor sign-in", "Closing your account").
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';
import { cli } from '../support/cli-accounts.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function serve(env: Record<string, string> = {}, dbPath = path.join(makeTempDir(), 'timetrack.db')): Promise<RunningServer> {
  const server = await startServer(dbPath, env);
  running.push(server);
  return server;
}

interface Answer {
  status: number;
  body: any;
}

async function call(server: RunningServer, method: string, url: string, options: { body?: unknown; token?: string; userAgent?: string } = {}): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function registerAccount(server: RunningServer, email = 'ann@example.com'): Promise<void> {
  expect((await call(server, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, full_name: 'Ann' } })).status).toBe(201);
}

async function signIn(server: RunningServer, email = 'ann@example.com', userAgent = 'curl/8.5.0'): Promise<string> {
  const answer = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD }, userAgent });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

describe('your sessions, against a real server', () => {
  it('lists them with device and address, revokes one and the others; a revoked one is 401 at once', async () => {
    const server = await serve();
    await registerAccount(server);
    const laptop = await signIn(server, 'ann@example.com', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0');
    const phone = await signIn(server, 'ann@example.com', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1');
    const script = await signIn(server);
    const { sessions } = (await call(server, 'GET', '/api/auth/sessions', { token: laptop })).body as { sessions: Array<{ id: number; device: string; address: string; current: boolean }> };
    expect(sessions.map((s) => [s.device, s.address, s.current])).toEqual([
      ['curl', '127.0.0.1', false],
      ['Safari on iOS', '127.0.0.1', false],
      ['Firefox on Linux', '127.0.0.1', true],
    ]);
    expect((await call(server, 'DELETE', `/api/auth/sessions/${sessions[1]!.id}`, { token: laptop })).status).toBe(204);
    expect((await call(server, 'GET', '/api/auth/me', { token: phone })).status).toBe(401);
    expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: laptop })).body).toEqual({ revoked: 1 });
    expect((await call(server, 'GET', '/api/time-entries', { token: script })).status).toBe(401);
    expect((await call(server, 'GET', '/api/auth/me', { token: laptop })).status).toBe(200);
  });
});

describe('API tokens, against a real server and the admin CLI', () => {
  it('a script\'s token reaches time tracking, never account management; token list --api and token revoke --api --id', async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    const server = await serve({}, dbPath);
    await registerAccount(server);
    const session = await signIn(server);
    const created = await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: { name: 'nightly export', expires_in_days: 7 } });
    expect(created.status).toBe(201);
    const { token, id } = created.body as { token: string; id: number };
    expect(token).toMatch(/^ttpat_/);
    expect((await call(server, 'POST', '/api/time-entries/start', { token, body: { note: 'from a script' } })).status).toBe(201);
    expect((await call(server, 'GET', '/api/stats/today', { token })).body.running).toBe(true);
    expect((await call(server, 'GET', '/api/auth/me', { token })).body.user.email).toBe('ann@example.com');
    const refused = await call(server, 'POST', '/api/auth/change-password', { token, body: { old_password: PASSWORD, new_password: 'another fine passphrase' } });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN_FOR_API_TOKEN']);

    const listed = await cli(dbPath, ['--json', 'token', 'list', '--api']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout as string)).toEqual({
      api_tokens: [{ id, name: 'nightly export', created_at: expect.any(String), expires_at: expect.any(String), last_used_at: null, user_id: expect.any(Number), user_email: 'ann@example.com' }],
    });
    expect(String(listed.stdout)).not.toContain(token);
    const text = await cli(dbPath, ['token', 'list', '--api', '--user', 'ann@example.com']);
    expect(String(text.stdout)).toMatch(/nightly export/);
    const revoked = await cli(dbPath, ['--json', 'token', 'revoke', '--api', '--id', String(id)]);
    expect([revoked.exitCode, JSON.parse(revoked.stdout as string)]).toEqual([0, { revoked: 1 }]);
    expect((await call(server, 'GET', '/api/time-entries/current', { token })).status).toBe(401);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: session })).status).toBe(200);
    expect((await cli(dbPath, ['token', 'revoke', '--api', '--id', String(id)])).exitCode).toBe(3);
    const audit = JSON.parse((await cli(dbPath, ['--json', 'audit', 'list'])).stdout as string) as { events: Array<{ action: string }> };
    expect(audit.events.map((event) => event.action)).toEqual(expect.arrayContaining(['api_token_created', 'api_token_revoked']));
  });
});
