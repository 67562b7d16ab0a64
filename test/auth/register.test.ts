// POST /api/auth/register (docs/api.md) and the field conventions of every route (docs/api.md, Conventions).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { login, post, register } from '../support/requests.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('POST /api/auth/register', () => {
  it('answers 201 with the public User object and stores the e-mail trimmed and lower-case', async () => {
    const response = await post(t.app, '/api/auth/register', account({ email: '  Ann.Example@EXAMPLE.com ', username: 'ann_e' }));
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { user } = response.json();
    expect(Object.keys(user).sort()).toEqual(['created_at', 'email', 'full_name', 'id', 'username']);
    expect(user).toEqual({
      id: expect.any(Number),
      email: 'ann.example@example.com',
      full_name: 'Ann Example',
      username: 'ann_e',
      created_at: '2026-03-02T09:00:00.000Z',
    });
    const row = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email).toBe('ann.example@example.com');
  });

  it('creates the AuthInfo together with the User (active, no failures)', async () => {
    const { user } = await register(t.app);
    const info = await t.ctx.db.selectFrom('auth_info').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(info).toMatchObject({ failed_attempts: 0, locked_until: null, status: 'active' });
  });

  it('answers username null when none is given', async () => {
    const { user } = (await post(t.app, '/api/auth/register', account())).json();
    expect(user.username).toBeNull();
  });

  it('accepts an explicit "username": null as no username', async () => {
    const response = await post(t.app, '/api/auth/register', { ...account({ email: 'nulluser@example.com' }), username: null });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.username).toBeNull();
  });

  it('answers 409 EMAIL_TAKEN for an address already used, in any case and with spaces', async () => {
    await register(t.app);
    expectError(await post(t.app, '/api/auth/register', account({ email: ' ANN@example.com' })), 409, 'EMAIL_TAKEN');
    expect(await t.ctx.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  });

  it('answers 409 USERNAME_TAKEN for a username already used, in any case', async () => {
    await register(t.app, account({ username: 'Ann' }));
    const response = await post(t.app, '/api/auth/register', account({ email: 'bob@example.com', username: 'aNN' }));
    expectError(response, 409, 'USERNAME_TAKEN');
  });

  it('answers 403 REGISTRATION_CLOSED when REGISTRATION=closed, and creates nothing', async () => {
    const closed = await createTestApp({ env: { REGISTRATION: 'closed' } });
    try {
      expectError(await post(closed.app, '/api/auth/register', account()), 403, 'REGISTRATION_CLOSED');
      expect(await closed.ctx.db.selectFrom('users').select('id').execute()).toHaveLength(0);
      // What the client asks before it offers sign-up.
      expect((await closed.app.inject({ method: 'GET', url: '/api/auth/registration' })).json()).toEqual({ registration: 'closed' });
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/registration' })).json()).toEqual({ registration: 'open' });
    } finally {
      await closed.close();
    }
  });

  it.each([
    ['a missing e-mail', { password: PASSWORD, full_name: 'Ann' }],
    ['a missing password', { email: 'ann@example.com', full_name: 'Ann' }],
    ['a missing full_name', { email: 'ann@example.com', password: PASSWORD }],
    ['an e-mail without @', account({ email: 'ann.example.com' })],
    ['an e-mail with a space inside', account({ email: 'ann @example.com' })],
    ['an empty e-mail', account({ email: '   ' })],
    ['an e-mail that is too long', account({ email: `${'a'.repeat(250)}@example.com` })],
    ['a blank full_name', account({ full_name: '   ' })],
    ['a full_name with a control character', account({ full_name: 'Ann\u0000Example' })],
    ['a username of 2 characters', account({ username: 'an' })],
    ['a username of 33 characters', account({ username: 'a'.repeat(33) })],
    ['a username with @', account({ username: 'ann@home' })],
    ['a username with a space', account({ username: 'ann e' })],
    ['an object as password', { ...account(), password: { value: PASSWORD } }],
    ['null as e-mail', { ...account(), email: null }],
    ['an array as body', [account()]],
    ['a password of 7 characters', account({ password: 'abcdefg' })],
    ['a password of 257 characters', account({ password: 'x'.repeat(257) })],
    ['a password of 7 astral characters', account({ password: '🐢'.repeat(7) })],
    ['a password of 257 astral characters', account({ password: '🐢'.repeat(257) })],
  ])('answers 400 VALIDATION_ERROR for %s', async (_label, body) => {
    const response = await post(t.app, '/api/auth/register', body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await t.ctx.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });

  it.each(['password123', 'Password123', 'qwertyuiop', 'iloveyou'])('answers 400 WEAK_PASSWORD for the common password %s', async (password) => {
    expectError(await post(t.app, '/api/auth/register', account({ password })), 400, 'WEAK_PASSWORD');
    expect(await t.ctx.db.selectFrom('users').select('id').execute()).toHaveLength(0);
  });

  it('accepts 8 and 256 code points, astral characters counted as one', async () => {
    const eight = '🐢🐢🐢🐢🐢🐢🐢🐢'; // 16 UTF-16 units, 8 code points
    const max = '🐢'.repeat(256);
    expect((await post(t.app, '/api/auth/register', account({ email: 'a@example.com', password: eight }))).statusCode).toBe(201);
    expect((await post(t.app, '/api/auth/register', account({ email: 'b@example.com', password: max }))).statusCode).toBe(201);
    expect((await post(t.app, '/api/auth/register', account({ email: 'c@example.com', password: 'y'.repeat(256) }))).statusCode).toBe(201);
    await login(t.app, 'a@example.com', eight);
    await login(t.app, 'b@example.com', max);
  });

  it('never truncates or case-folds a password', async () => {
    const long = `${'correct-horse-'.repeat(8)}end`; // 115 characters, past bcrypt's 72 bytes
    await register(t.app, account({ password: long }));
    const attempt = (password: string) => post(t.app, '/api/auth/login', { email: 'ann@example.com', password });
    expectError(await attempt(long.slice(0, 72)), 401, 'INVALID_CREDENTIALS');
    expectError(await attempt(long.slice(0, -1)), 401, 'INVALID_CREDENTIALS');
    expectError(await attempt(long.toUpperCase()), 401, 'INVALID_CREDENTIALS');
    expect((await attempt(long)).statusCode).toBe(200);
  });

  it('keeps surrounding spaces of a password (no trimming)', async () => {
    await register(t.app, account({ password: `  ${PASSWORD}  ` }));
    expectError(await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD }), 401, 'INVALID_CREDENTIALS');
    await login(t.app, 'ann@example.com', `  ${PASSWORD}  `);
  });

  it('answers the same 201 for parallel registrations of one address only once', async () => {
    const responses = await Promise.all([1, 2, 3].map(() => post(t.app, '/api/auth/register', account())));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });
});
