// The database cannot take writes (full disk, read-only file) or is held by another process: clear
// 503s with the error shape, a log line, health reporting it, and nothing half-written.
import { afterEach, describe, expect, it } from 'vitest';
import { WRITE_FAILURE_HOLD_SECONDS } from '../../src/common/health.js';
import { account, createTestApp, PASSWORD, type TestApp, sqliteOf } from '../support/app.js';
import { register } from '../support/requests.js';
import { onPostgres } from '../support/database.js';

let t: TestApp;
afterEach(async () => {
  await t.close();
});

const countUsers = async () => (await t.ctx.db.selectFrom('users').select('id').execute()).length;

describe.skipIf(onPostgres)('SQLite file: database faults', () => {
  it('keeps synchronous=FULL, WAL and foreign keys, also after the best-effort writes of sign-in', async () => {
    t = await createTestApp();
    expect(sqliteOf(t.ctx).pragma('synchronous', { simple: true })).toBe(2); // FULL
    await register(t.app);
    const attempts = await Promise.all([
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: PASSWORD } }),
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: 'wrong password!' } }),
      t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.com', password: 'wrong password!' } }),
    ]);
    expect(attempts.map((response) => response.statusCode)).toEqual([200, 401, 401]);
    // The session and the counts were written with NORMAL; the connection is back to FULL.
    expect(sqliteOf(t.ctx).pragma('synchronous', { simple: true })).toBe(2);
    expect(sqliteOf(t.ctx).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqliteOf(t.ctx).pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('answers 503 DATABASE_UNAVAILABLE when the disk is full, reports it in health, and writes nothing', async () => {
    t = await createTestApp();
    await register(t.app);
    const pages = sqliteOf(t.ctx).pragma('page_count', { simple: true }) as number;
    // No room for one more page: every write that needs one fails with SQLITE_FULL.
    sqliteOf(t.ctx).pragma(`max_page_count = ${pages}`);
    const users = await countUsers();
    const responses = [];
    for (let i = 0; i < 20; i++) {
      responses.push(
        await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: account({ email: `full${i}@example.com`, full_name: 'x'.repeat(150) }) }),
      );
    }
    const failed = responses.filter((response) => response.statusCode === 503);
    expect(failed.length).toBeGreaterThan(0);
    expect(responses.every((response) => response.statusCode === 201 || response.statusCode === 503)).toBe(true);
    expect(failed[0]!.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'DATABASE_UNAVAILABLE',
      message: 'The database is unavailable; try again shortly',
    });
    expect(failed[0]!.headers['retry-after']).toBe('5');
    expect(t.logs()).toMatch(/database unavailable/);
    expect(t.logs()).toMatch(/SQLITE_FULL/);
    // Every account is whole: a user row never stands without its auth row.
    const created = responses.filter((response) => response.statusCode === 201).length;
    expect(await countUsers()).toBe(users + created);
    expect((await t.ctx.db.selectFrom('auth_info').select('user_id').execute()).length).toBe(users + created);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({
      status: 'unavailable',
      reason: expect.any(String),
      version: expect.any(String),
      commit: expect.any(String),
      engine: expect.any(String),
    });

    // Room again, and time passes: health recovers, writes work.
    sqliteOf(t.ctx).pragma('max_page_count = 1073741823');
    t.clock.advance(WRITE_FAILURE_HOLD_SECONDS + 1);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: account({ email: 'after@example.com' }) })).statusCode).toBe(201);
  });

  it('answers 503 for writes on a read-only database while reads go on', async () => {
    t = await createTestApp();
    await register(t.app);
    const token = (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: PASSWORD } })).json()
      .token as string;
    sqliteOf(t.ctx).pragma('query_only = ON');
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: account({ email: 'ro@example.com' }) });
    expect(refused.statusCode).toBe(503);
    expect(refused.json().code).toBe('DATABASE_UNAVAILABLE');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    sqliteOf(t.ctx).pragma('query_only = OFF');
  });
});
