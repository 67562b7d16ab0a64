// Closing one's own account (docs/api.md, "Closing your account"): the password (and a code with
// two-factor sign-in) deletes the account and all its data in one transaction; the audit trail keeps
// the account's actions, times and client addresses under its label, and nothing personal.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { queryRows, TABLES_OF_NO_ACCOUNT, tableNames } from '../support/database.js';
import { expectError } from '../support/expectations.js';
import { addEntry, asUser, login, register, request, type SignedIn } from '../support/requests.js';
import { totpCode, wrongCode } from '../support/totp.js';

let t: TestApp;
let ann: SignedIn;
let bob: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  const annId = (await register(t.app, account())).user.id;
  const bobId = (await register(t.app, account({ email: 'bob@example.com' }))).user.id;
  ann = asUser(t, annId, await login(t.app));
  bob = asUser(t, bobId, await login(t.app, 'bob@example.com'));
  // Ann has something in every table an account owns.
  await addEntry(ann, '2026-03-02T07:00:00.000Z', '2026-03-02T08:00:00.000Z', 'private note');
  expect((await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-05', type: 'vacation' })).statusCode).toBe(201);
  expect((await ann.call('PATCH', '/api/settings', { timezone: 'Europe/Berlin', timezone_valid_from: '1970-01-01' })).statusCode).toBe(200);
  expect((await ann.call('POST', '/api/auth/api-tokens', { name: 'script', expires_in_days: 5, password: PASSWORD })).statusCode).toBe(201);
  await t.ctx.db
    .insertInto('reset_tokens')
    .values({ user_id: annId, token_hash: 'r'.repeat(64), created_at: t.clock.now().toISOString(), expires_at: '2999-01-01T00:00:00.000Z', used_at: null })
    .execute();
  await addEntry(bob, '2026-03-02T07:00:00.000Z', '2026-03-02T08:00:00.000Z');
});
afterEach(async () => {
  await t.close();
});

/** Rows of the account in every table that belongs to accounts (the audit trail aside). */
async function rowsOf(userId: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tableNames(t.dbPath)) {
    if (['users', 'audit_events', ...TABLES_OF_NO_ACCOUNT].includes(table) || table.startsWith('kysely_')) continue;
    counts[table] = Number((await queryRows<{ n: number }>(t.dbPath, `select count(*) as n from ${table} where user_id = ?`, [userId]))[0]!.n);
  }
  counts.users = Number((await queryRows<{ n: number }>(t.dbPath, 'select count(*) as n from users where id = ?', [userId]))[0]!.n);
  return counts;
}

describe('DELETE /api/auth/account', () => {
  it('with the right password deletes the account and everything of it; audited under its label, with nothing personal', async () => {
    expectError(await ann.call('DELETE', '/api/auth/account', { password: 'not my password' }), 403, 'INVALID_PASSWORD');
    expect(Object.values(await rowsOf(ann.userId)).some((n) => n > 0)).toBe(true);
    const response = await ann.call('DELETE', '/api/auth/account', { password: PASSWORD });
    expect(response.statusCode).toBe(204);
    expect(response.headers['cache-control']).toBe('no-store');
    const left = await rowsOf(ann.userId);
    expect(Object.entries(left).filter(([, n]) => n > 0)).toEqual([]);
    expect(Object.keys(left)).toEqual(
      expect.arrayContaining(['auth_info', 'auth_tokens', 'api_tokens', 'time_entries', 'absences', 'daily_totals', 'user_settings', 'reset_tokens']),
    );
    expectError(await ann.call('GET', '/api/auth/me'), 401, 'UNAUTHORIZED');
    expectError(await request(t.app, 'POST', '/api/auth/login', { payload: { email: 'ann@example.com', password: PASSWORD } }), 401, 'INVALID_CREDENTIALS');
    // Bob is untouched.
    expect((await bob.call('GET', '/api/time-entries?from=2026-03-02&to=2026-03-03')).json().entries).toHaveLength(1);
    const audit = await queryRows<Record<string, unknown>>(t.dbPath, "select * from audit_events where action = 'account_closed'");
    expect(audit).toEqual([
      {
        id: expect.anything(),
        at: '2026-03-02T09:00:00.000Z',
        actor: `user:${ann.userId}`,
        action: 'account_closed',
        user_id: ann.userId,
        user_email: `closed-account:${ann.userId}`,
        detail: '{}',
      },
    ]);
    // Earlier events of the account keep their action, time and client address under the label, not its e-mail address or the token's name.
    const earlier = await queryRows<{ action: string; user_email: string | null; detail: string }>(
      t.dbPath,
      'select action, user_email, detail from audit_events where user_id = ? order by id',
      [ann.userId],
    );
    expect(earlier.map((e) => e.action)).toEqual(['api_token_created', 'account_closed']);
    expect(earlier.every((e) => e.user_email === `closed-account:${ann.userId}`)).toBe(true);
    expect(JSON.parse(earlier[0]!.detail)).toEqual({ api_token_id: expect.any(Number), expires_at: expect.any(String), client: '127.0.0.1' });
    const everything = JSON.stringify(await queryRows(t.dbPath, 'select * from audit_events'));
    expect(everything).not.toContain('ann@example.com');
    expect(everything).not.toContain('private note');
  });

  it('with two-factor sign-in on, needs a code as well', async () => {
    const { secret } = (await ann.call('POST', '/api/auth/2fa/setup', { password: PASSWORD })).json();
    expect((await ann.call('POST', '/api/auth/2fa/enable', { code: totpCode(secret, t.clock.now()) })).statusCode).toBe(200);
    t.clock.advance(30);
    expectError(await ann.call('DELETE', '/api/auth/account', { password: PASSWORD }), 400, 'VALIDATION_ERROR');
    expectError(await ann.call('DELETE', '/api/auth/account', { password: PASSWORD, code: wrongCode(secret, t.clock.now()) }), 403, 'INVALID_TWO_FACTOR_CODE');
    expect((await rowsOf(ann.userId)).users).toBe(1);
    expect((await ann.call('DELETE', '/api/auth/account', { password: PASSWORD, code: totpCode(secret, t.clock.now()) })).statusCode).toBe(204);
    expect(Object.entries(await rowsOf(ann.userId)).filter(([, n]) => n > 0)).toEqual([]);
  });

  it("wrong passwords count against the session (the third signs it out), not the owner's sign-in lock", async () => {
    for (let i = 0; i < 2; i += 1) expectError(await ann.call('DELETE', '/api/auth/account', { password: `wrong ${i}` }), 403, 'INVALID_PASSWORD');
    expectError(await ann.call('DELETE', '/api/auth/account', { password: 'wrong again' }), 401, 'UNAUTHORIZED');
    expectError(await ann.call('DELETE', '/api/auth/account', { password: PASSWORD }), 401, 'UNAUTHORIZED');
    expect((await rowsOf(ann.userId)).users).toBe(1);
    expect((await t.ctx.db.selectFrom('auth_info').select('failed_attempts').where('user_id', '=', ann.userId).executeTakeFirstOrThrow()).failed_attempts).toBe(
      0,
    );
    expect(await login(t.app)).toEqual(expect.any(String));
  });
});
