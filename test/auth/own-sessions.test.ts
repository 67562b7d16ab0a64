// The user's own sessions (docs/api.md, "Your sessions"): the list with device, address and last use
// (written at most once per 5 minutes, never on the request's path), revoking one (another user's id
// is 404), revoking every other; a revoked session is 401 at once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActivityRecorder } from '../../src/auth/sessions/activity.js';
import { deviceName } from '../../src/auth/sessions/devices.js';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { register, request, type TestResponse } from '../support/requests.js';
import { queryRows } from '../support/database.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

async function signIn(email = 'ann@example.com', userAgent = FIREFOX, remoteAddress = '127.0.0.1'): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': userAgent },
    remoteAddress,
    payload: { email, password: PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  return response.json().token as string;
}

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string): Promise<TestResponse> => request(t.app, method, url, { token });
const list = async (token: string) => {
  const response = await call('GET', '/api/auth/sessions', token);
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.json().sessions as Array<Record<string, unknown>>;
};
const storedLastSeen = async () =>
  (await t.ctx.db.selectFrom('auth_tokens').select(['id', 'last_seen_at']).orderBy('id').execute()).map((row) => row.last_seen_at);

describe('device names', () => {
  it.each([
    [FIREFOX, 'Firefox on Linux'],
    [IPHONE, 'Safari on iOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on Windows'],
    ['curl/8.5.0', 'curl'],
    ['python-requests/2.31', 'python-requests'],
    ['\u001b]0;evil\u0007', null],
    ['', null],
    [null, null],
  ])('%s → %s', (agent, name) => {
    expect(deviceName(agent)).toBe(name);
  });
});

describe('GET /api/auth/sessions', () => {
  it("lists the account's own sessions, newest first, with device, address and the current one; never a token or hash", async () => {
    await register(t.app, account());
    await register(t.app, account({ email: 'bob@example.com' }));
    const laptop = await signIn('ann@example.com', FIREFOX, '203.0.113.7');
    t.clock.advance(60);
    const phone = await signIn('ann@example.com', IPHONE, '2001:db8::1');
    await signIn('bob@example.com');
    const sessions = await list(phone);
    expect(sessions).toEqual([
      {
        id: expect.any(Number),
        created_at: '2026-03-02T09:01:00.000Z',
        last_seen_at: expect.any(String),
        expires_at: '2026-03-03T09:01:00.000Z',
        device: 'Safari on iOS',
        address: '2001:db8::1',
        current: true,
      },
      {
        id: expect.any(Number),
        created_at: '2026-03-02T09:00:00.000Z',
        last_seen_at: '2026-03-02T09:00:00.000Z',
        expires_at: '2026-03-03T09:00:00.000Z',
        device: 'Firefox on Linux',
        address: '203.0.113.7',
        current: false,
      },
    ]);
    const body = JSON.stringify(sessions);
    for (const secret of [laptop, phone, ...(await t.ctx.db.selectFrom('auth_tokens').select('token_hash').execute()).map((row) => row.token_hash)])
      expect(body).not.toContain(secret);
    expect((await list(laptop)).map((s) => s.current)).toEqual([false, true]);
  });

  it('leaves out expired sessions', async () => {
    await register(t.app, account());
    await signIn();
    t.clock.advance(23 * 3600);
    const later = await signIn();
    t.clock.advance(3600);
    expect((await list(later)).length).toBe(1);
  });
});

describe('last_seen_at', () => {
  it('is noted in memory on each request and written by the flush, at most once per 5 minutes per session', async () => {
    await register(t.app, account());
    const token = await signIn();
    expect(await storedLastSeen()).toEqual([null]);
    t.clock.advance(120);
    expect((await call('GET', '/api/auth/me', token)).statusCode).toBe(200);
    // Nothing is written on the request's path.
    expect(await storedLastSeen()).toEqual([null]);
    expect((await list(token))[0]!.last_seen_at).toBe('2026-03-02T09:02:00.000Z');
    await t.ctx.services.activity.flush();
    expect(await storedLastSeen()).toEqual(['2026-03-02T09:02:00.000Z']);
    // Within 5 minutes of the last note nothing more is noted or written.
    t.clock.advance(299);
    expect((await call('GET', '/api/time-entries', token)).statusCode).toBe(200);
    await t.ctx.services.activity.flush();
    expect(await storedLastSeen()).toEqual(['2026-03-02T09:02:00.000Z']);
    t.clock.advance(1);
    expect((await call('GET', '/api/stats/today', token)).statusCode).toBe(200);
    await t.ctx.services.activity.flush();
    expect(await storedLastSeen()).toEqual(['2026-03-02T09:07:00.000Z']);
  });

  it('is written at most once per 5 minutes also when several processes note the same session', async () => {
    await register(t.app, account());
    const token = await signIn();
    const tokenHash = (await t.ctx.db.selectFrom('auth_tokens').select('token_hash').executeTakeFirstOrThrow()).token_hash;
    const other = createActivityRecorder({ bestEffort: t.ctx.database.bestEffort, clock: t.clock, logger: t.ctx.logger });
    t.clock.advance(600);
    expect((await call('GET', '/api/auth/me', token)).statusCode).toBe(200);
    await t.ctx.services.activity.flush();
    t.clock.advance(100);
    other.seen('session', tokenHash);
    await other.flush();
    expect(await storedLastSeen()).toEqual(['2026-03-02T09:10:00.000Z']);
    // Its own note 5 minutes later is more than 5 minutes after the stored one: written.
    t.clock.advance(300);
    other.seen('session', tokenHash);
    await other.flush();
    expect(await storedLastSeen()).toEqual(['2026-03-02T09:16:40.000Z']);
  });

  it('is flushed when the context closes', async () => {
    await register(t.app, account());
    const token = await signIn();
    t.clock.advance(60);
    expect((await call('GET', '/api/auth/me', token)).statusCode).toBe(200);
    await t.close();
    expect(await queryRows(t.dbPath, 'select last_seen_at from auth_tokens')).toEqual([{ last_seen_at: '2026-03-02T09:01:00.000Z' }]);
    t = await createTestApp();
  });
});

describe('DELETE /api/auth/sessions/:id', () => {
  it("revokes one of the account's sessions: that token is 401 at once, the others work", async () => {
    await register(t.app, account());
    const laptop = await signIn();
    const phone = await signIn('ann@example.com', IPHONE);
    const phoneId = (await list(laptop)).find((s) => s.device === 'Safari on iOS')!.id;
    const response = await call('DELETE', `/api/auth/sessions/${phoneId}`, laptop);
    expect(response.statusCode).toBe(204);
    expect(response.headers['cache-control']).toBe('no-store');
    expectError(await call('GET', '/api/auth/me', phone), 401, 'UNAUTHORIZED');
    expect((await call('GET', '/api/auth/me', laptop)).statusCode).toBe(200);
    expect((await list(laptop)).length).toBe(1);
    const audit = await t.ctx.services.audit.list({ userIds: await t.ctx.services.audit.accountIds('ann@example.com') });
    expect(audit[0]).toMatchObject({
      action: 'sessions_revoked',
      actor: expect.stringMatching(/^user:\d+$/),
      detail: { by: 'owner', session_id: phoneId, current: false },
    });
  });

  it("answers 404 for another user's session and leaves it alone; 404 for an unknown id, 400 for a bad one", async () => {
    await register(t.app, account());
    await register(t.app, account({ email: 'bob@example.com' }));
    const ann = await signIn();
    const bob = await signIn('bob@example.com');
    const bobsId = (await list(bob))[0]!.id;
    expectError(await call('DELETE', `/api/auth/sessions/${bobsId}`, ann), 404, 'NOT_FOUND');
    expect((await call('GET', '/api/auth/me', bob)).statusCode).toBe(200);
    expectError(await call('DELETE', '/api/auth/sessions/999999', ann), 404, 'NOT_FOUND');
    expectError(await call('DELETE', '/api/auth/sessions/abc', ann), 400, 'VALIDATION_ERROR');
    expectError(await call('DELETE', '/api/auth/sessions/0', ann), 400, 'VALIDATION_ERROR');
  });

  it('revoking the current session signs this device out', async () => {
    await register(t.app, account());
    const token = await signIn();
    const id = (await list(token))[0]!.id;
    expect((await call('DELETE', `/api/auth/sessions/${id}`, token)).statusCode).toBe(204);
    expectError(await call('GET', '/api/auth/sessions', token), 401, 'UNAUTHORIZED');
  });
});

describe('POST /api/auth/sessions/revoke-others', () => {
  it("revokes every other session of the account, not the calling one nor another account's", async () => {
    await register(t.app, account());
    await register(t.app, account({ email: 'bob@example.com' }));
    const keep = await signIn();
    const others = [await signIn('ann@example.com', IPHONE), await signIn('ann@example.com', 'curl/8.5.0')];
    const bob = await signIn('bob@example.com');
    const response = await call('POST', '/api/auth/sessions/revoke-others', keep);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ revoked: 2, revoked_api_tokens: 0 });
    for (const token of others) expectError(await call('GET', '/api/time-entries', token), 401, 'UNAUTHORIZED');
    expect((await call('GET', '/api/auth/me', keep)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/me', bob)).statusCode).toBe(200);
    expect((await call('POST', '/api/auth/sessions/revoke-others', keep)).json()).toEqual({ revoked: 0, revoked_api_tokens: 0 });
  });

  it('needs a session', async () => {
    expectError(await request(t.app, 'POST', '/api/auth/sessions/revoke-others'), 401, 'UNAUTHORIZED');
    expectError(await request(t.app, 'GET', '/api/auth/sessions'), 401, 'UNAUTHORIZED');
    expectError(await request(t.app, 'DELETE', '/api/auth/sessions/1'), 401, 'UNAUTHORIZED');
  });
});
