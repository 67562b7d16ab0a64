// Stored password hashes: argon2id at OWASP's minimum, salted, upgraded at the next successful login.
// These tests hash with the real argon2id (the rest of the suite uses a fast stand-in).
import argon2 from 'argon2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { login, post, register } from '../support/requests.js';
import { ARGON2_DUMMY_HASH, ARGON2_PARAMETERS } from '../../src/auth/passwords/hasher.js';

let t: TestApp;
let userId: number;
beforeEach(async () => {
  t = await createTestApp({ realHashing: true });
  userId = (await register(t.app, account({ username: 'ann' }))).user.id;
});
afterEach(async () => {
  await t.close();
});

const wrong = () => post(t.app, '/api/auth/login', { email: 'ann@example.com', password: 'not the right password' });

async function authInfo() {
  return t.ctx.db.selectFrom('auth_info').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
}

describe('password hashes', () => {
  it('stores an argon2id PHC string with at least m=19456, t=2, p=1', async () => {
    const { password_hash } = await authInfo();
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(password_hash);
    expect(match).not.toBeNull();
    const [, m, time, p] = match!.map(Number);
    expect(m).toBeGreaterThanOrEqual(19456);
    expect(time).toBeGreaterThanOrEqual(2);
    expect(p).toBeGreaterThanOrEqual(1);
  });

  it('salts: two accounts with the same password get different hashes', async () => {
    await register(t.app, account({ email: 'bob@example.com' }));
    const hashes = await t.ctx.db.selectFrom('auth_info').select('password_hash').execute();
    expect(new Set(hashes.map((row) => row.password_hash)).size).toBe(2);
  });

  it('rehashes a hash with weaker parameters at the next successful login, not at a failed one', async () => {
    const weak = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await t.ctx.db.updateTable('auth_info').set({ password_hash: weak }).where('user_id', '=', userId).execute();
    await wrong();
    expect((await authInfo()).password_hash).toBe(weak);
    await login(t.app);
    const upgraded = (await authInfo()).password_hash;
    expect(upgraded).not.toBe(weak);
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await argon2.verify(upgraded, PASSWORD)).toBe(true);
    await login(t.app);
  });

  it('rehashes an argon2i hash to argon2id', async () => {
    const old = await argon2.hash(PASSWORD, { type: argon2.argon2i, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await t.ctx.db.updateTable('auth_info').set({ password_hash: old }).where('user_id', '=', userId).execute();
    await login(t.app);
    expect((await authInfo()).password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('the hash an unknown account is verified against', () => {
  it('is argon2id at the parameters of every stored hash, so that an unknown e-mail costs what a known one does', async () => {
    expect(ARGON2_DUMMY_HASH.startsWith('$argon2id$')).toBe(true);
    expect(argon2.needsRehash(ARGON2_DUMMY_HASH, ARGON2_PARAMETERS)).toBe(false);
    const { password_hash } = await authInfo();
    expect(ARGON2_DUMMY_HASH.split('$').slice(0, 4)).toEqual(password_hash.split('$').slice(0, 4));
  });

  it('verifies no password, and a sign-in of an unknown e-mail is checked against it', async () => {
    expect(await argon2.verify(ARGON2_DUMMY_HASH, PASSWORD)).toBe(false);
    const before = t.ctx.services.hasher.verifications;
    expect((await post(t.app, '/api/auth/login', { email: 'nobody@example.com', password: PASSWORD })).statusCode).toBe(401);
    expect(t.ctx.services.hasher.verifications).toBe(before + 1);
  });
});
