// Hostile strings in every auth field are stored and compared as data, never as SQL, and never
// cause a 500. Queries are built with Kysely's parameterised builder throughout.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/cli.js';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { bearer, login, register } from '../support/requests.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ env: { LOCKOUT_ATTEMPTS: '1000' } });
});
afterEach(async () => {
  await t.close();
});

const HOSTILE = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  'robert"); DELETE FROM auth_info; --',
  '\u0000nul\u0000byte',
  'x'.repeat(10_000),
  'аdmin', // Cyrillic а
  '%_*\\',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
];

describe('hostile input in auth fields', () => {
  it('never answers 5xx and never changes the database beyond the one account', async () => {
    await register(t.app);
    for (const value of HOSTILE) {
      const responses = await Promise.all([
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: value, password: value } }),
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: value } }),
        t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email: `${value}@example.com`, password: PASSWORD, full_name: value, username: value },
        }),
        t.app.inject({ method: 'POST', url: '/api/auth/request-reset', payload: { email: value } }),
        t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: value, new_password: PASSWORD } }),
      ]);
      for (const response of responses) {
        expect(response.statusCode, `${value.slice(0, 40)} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
        expect(response.body).not.toMatch(/SQLITE|syntax error|constraint/i);
      }
    }
    const users = await t.ctx.db.selectFrom('users').select(['email', 'full_name']).execute();
    expect(users.some((user) => user.email === 'ann@example.com')).toBe(true);
    expect(await t.ctx.db.selectFrom('auth_info').select('user_id').execute()).toHaveLength(users.length);
  });

  it('stores metacharacters and Unicode exactly, and compares e-mails without regard to case only', async () => {
    const name = "O'Brien; DROP TABLE users; -- \u00e9\u0301 \u{1F600}";
    await register(t.app, { email: "o'brien+test@Example.COM", password: PASSWORD, full_name: name });
    const token = await login(t.app, "O'BRIEN+TEST@example.com");
    const me = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json();
    expect(me.user).toMatchObject({ email: "o'brien+test@example.com", full_name: name });
    // A look-alike address (Cyrillic о) is another address, not the same account.
    const lookAlike = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: "\u043e'brien+test@example.com", password: PASSWORD } });
    expect(lookAlike.statusCode).toBe(401);
    // A password is compared exactly: no case folding, no trimming, no truncation.
    for (const variant of [PASSWORD.toUpperCase(), ` ${PASSWORD}`, PASSWORD.slice(0, -1)]) {
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: "o'brien+test@example.com", password: variant } })).statusCode,
      ).toBe(401);
    }
  });

  // Migrations take no input (their few sql.raw calls hold constants); everything that runs on a
  // request or a command lives in src/.
  it('builds no SQL from input: no sql.raw, sql.lit, sql.ref or sql.id in src/', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (file.endsWith('.ts') && /\bsql\.(raw|lit|ref|id|table|join)\s*\(/.test(fs.readFileSync(file, 'utf8'))) offenders.push(file);
      }
    };
    walk(path.join(PROJECT_ROOT, 'src'));
    expect(offenders).toEqual([]);
  });
});
