import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, bearer, createTestApp, login, register, type TestApp } from '../helpers/context.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('register, login, me', () => {
  it('registers, logs in and reads the user back', async () => {
    const { user } = await register(t.app, account({ email: '  Ann@Example.COM ' }));
    expect(user.email).toBe('ann@example.com');
    const token = await login(t.app, 'ANN@example.com');
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ user: expect.objectContaining({ id: user.id, email: 'ann@example.com', username: null }) });
    expect(me.headers['cache-control']).toBe('no-store');
  });
});
