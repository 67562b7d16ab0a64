// Records that can no longer be used are deleted on a timer; the files on disk are private.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeTempDir, type TestApp } from '../support/app.js';
import { login, register } from '../support/requests.js';
import { startServer } from '../support/server.js';
import { onPostgres, queryRows } from '../support/database.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('housekeeping', () => {
  it('deletes expired sessions and API tokens, expired or used reset tokens and stale unknown-identifier failures', async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development', JWT_EXPIRATION: '1h', RESET_TOKEN_TTL: '30m', LOCKOUT_DURATION: '15m' } });
    const { user } = await register(t.app);
    const kept = await login(t.app);
    await t.ctx.services.apiTokens.createToken(user.id, 'one day', 1);
    await t.ctx.services.apiTokens.createToken(user.id, 'two days', 2);
    await t.app.inject({ method: 'POST', url: '/api/auth/request-reset', payload: { email: 'ann@example.com' } });
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ghost@example.com', password: 'wrong password!' } });

    // Nothing is expired yet: nothing goes.
    expect(await t.ctx.services.housekeeping.deleteExpiredRecords()).toEqual({
      sessions: 0,
      apiTokens: 0,
      resetTokens: 0,
      loginChallenges: 0,
      unknownLoginFailures: 0,
    });

    t.clock.advance(2 * 3600);
    const fresh = await login(t.app);
    expect(await t.ctx.services.housekeeping.deleteExpiredRecords()).toEqual({
      sessions: 1,
      apiTokens: 0,
      resetTokens: 1,
      loginChallenges: 0,
      unknownLoginFailures: 1,
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${fresh}` } })).statusCode).toBe(200);
    expect(kept).not.toBe(fresh);
    t.clock.advance(24 * 3600);
    await t.ctx.db
      .insertInto('login_challenges')
      .values({
        user_id: user.id,
        token_hash: 'c'.repeat(64),
        purpose: 'sign_in',
        password_fingerprint: 'f',
        created_at: t.clock.now().toISOString(),
        expires_at: t.clock.now().toISOString(),
        used_at: null,
      })
      .execute();
    expect(await t.ctx.services.housekeeping.deleteExpiredRecords()).toMatchObject({ apiTokens: 1, loginChallenges: 1 });
    expect((await t.ctx.services.apiTokens.listTokens(user.id)).map((token) => token.name)).toEqual(['two days']);
  });

  it('runs on a timer in serve (HOUSEKEEPING_INTERVAL)', async () => {
    const db = path.join(makeTempDir(), 'timetrack.db');
    const server = await startServer(db, { HOUSEKEEPING_INTERVAL: '1s' });
    try {
      await queryRows(db, "insert into users (email, full_name, created_at) values ('old@example.com', 'Old', '2020-01-01T00:00:00.000Z')");
      // Expiring in 2 s: present when counted first, gone some time after (the server's clock is the real one).
      await queryRows(db, "insert into auth_tokens (user_id, token_hash, created_at, expires_at) values (1, ?, '2020-01-01T00:00:00.000Z', ?)", [
        'f'.repeat(64),
        new Date(Date.now() + 2000).toISOString(),
      ]);
      const count = async () => (await queryRows<{ n: number }>(db, 'select count(*) as n from auth_tokens'))[0]!.n;
      expect(await count()).toBe(1);
      const deadline = Date.now() + 10_000;
      while ((await count()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await count()).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('files', () => {
  it.skipIf(onPostgres)('creates the data folder 0700 and the database, its WAL and the generated secret 0600 (SQLite: skipped on PostgreSQL)', async () => {
    const folder = path.join(makeTempDir(), 'nested', 'data');
    const dbPath = path.join(folder, 'timetrack.db');
    t = await createTestApp({ env: { TIMETRACK_DB: dbPath } });
    await register(t.app);
    await login(t.app); // signs a token: the secret file is generated now
    expect(mode(folder)).toBe(0o700);
    expect(mode(dbPath)).toBe(0o600);
    expect(mode(`${dbPath}-wal`)).toBe(0o600);
    expect(mode(`${dbPath}.jwt-secret`)).toBe(0o600);
    expect(fs.readFileSync(`${dbPath}.jwt-secret`, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
  });
});
