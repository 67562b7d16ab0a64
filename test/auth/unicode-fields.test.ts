// E-mail addresses and names refuse invisible characters and fold look-alikes (docs/security.md,
// "Hostile input"): no second account that looks like the first, no name that reorders a table.
import { afterEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { login, post, register } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const registerBody = (overrides: Record<string, string>) => ({ email: 'ann@example.com', password: PASSWORD, full_name: 'Ann Example', ...overrides });

describe('e-mail addresses', () => {
  it.each([
    ['a zero-width space', 'ann@example.com\u200B'],
    ['a zero-width joiner in the local part', 'an\u200Dn@example.com'],
    ['a bidi override', '\u202Eann@example.com'],
    ['a private-use character', 'ann\uE000@example.com'],
    ['an unassigned code point', 'ann\u{E0080}@example.com'],
    ['an invalid IDNA domain', 'ann@xn--a.com'],
  ])('refuses %s', async (_name, email) => {
    t = await createTestApp();
    expectError(await post(t.app, '/api/auth/register', registerBody({ email })), 400, 'VALIDATION_ERROR');
  });

  it('folds fullwidth forms and IDNA domains, so a look-alike is the same account', async () => {
    t = await createTestApp();
    await register(t.app);
    expectError(await post(t.app, '/api/auth/register', registerBody({ email: 'ａｎｎ＠ｅｘａｍｐｌｅ．ｃｏｍ' })), 409, 'EMAIL_TAKEN');
    expect(await login(t.app, 'ＡＮＮ@example.com')).toEqual(expect.any(String));
    const created = await post(t.app, '/api/auth/register', registerBody({ email: 'bob@exämple.com' }));
    expect(created.statusCode).toBe(201);
    expect(created.json().user.email).toBe('bob@xn--exmple-cua.com');
    expect(await login(t.app, 'bob@EXÄMPLE.com')).toEqual(expect.any(String));
  });
});

describe('names', () => {
  it.each([
    ['a right-to-left override', 'Ann \u202EelpmaxE'],
    ['a zero-width space', 'Ann\u200BExample'],
    ['a line separator', 'Ann\u2028Example'],
  ])('refuse %s', async (_name, full_name) => {
    t = await createTestApp();
    expectError(await post(t.app, '/api/auth/register', registerBody({ full_name })), 400, 'VALIDATION_ERROR');
  });

  it('keep what people write their names with (accents, other scripts)', async () => {
    t = await createTestApp();
    const { user } = await register(t.app, account({ full_name: 'Zoë Ōtsuka 大塚' }));
    expect(user).toMatchObject({ email: 'ann@example.com' });
  });
});
