// The whole log of a real production server over a session of every auth action holds no password,
// no session token, no reset token and no hash of any of them.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { startServer } from '../support/server.js';
import { onPostgres } from '../support/database.js';

describe('log secrecy', () => {
  it.skipIf(onPostgres)('a register/login/change/logout/reset session leaves no secret in the server log (SQLite: skipped on PostgreSQL)', async () => {
    const db = path.join(makeTempDir(), 'timetrack.db');
    const server = await startServer(db, { LOG_LEVEL: 'trace' });
    const call = async (method: string, route: string, body?: unknown, token?: string) => {
      const response = await fetch(`${server.baseUrl}${route}`, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return (await response.json()) as Record<string, string>;
    };
    const changed = 'a changed passphrase';
    const reset = 'a passphrase after reset';
    const secrets: string[] = [PASSWORD, changed, reset, 'wrong password!'];
    try {
      await call('POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' });
      await call('POST', '/api/auth/login', { email: 'ann@example.com', password: 'wrong password!' });
      const first = (await call('POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).token!;
      const second = (await call('POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).token!;
      secrets.push(first, second);
      await call('GET', `/api/auth/me?access_token=${first}`, undefined, first);
      await call('POST', '/api/auth/change-password', { old_password: PASSWORD, new_password: changed }, first);
      await call('POST', '/api/auth/logout', {}, first);
      await call('POST', '/api/auth/request-reset', { email: 'ann@example.com' });
      const issued = JSON.parse((await runCli(['--db', db, '--json', 'reset', 'issue', 'ann@example.com'])).stdout as string) as { reset_token: string };
      secrets.push(issued.reset_token);
      await call('POST', '/api/auth/reset-password', { token: issued.reset_token, new_password: reset });

      const sqlite = new Database(db, { readonly: true });
      const hashes = [
        ...(sqlite.prepare('select password_hash as h from auth_info').all() as Array<{ h: string }>).map((row) => row.h),
        ...(sqlite.prepare('select token_hash as h from auth_tokens union all select token_hash from reset_tokens').all() as Array<{ h: string }>).map(
          (row) => row.h,
        ),
      ];
      sqlite.close();
      secrets.push(...hashes, '$argon2');
    } finally {
      await server.stop();
    }
    const log = server.output();
    expect(log).toMatch(/request completed/);
    for (const secret of secrets) expect(log.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
    // The query string is never logged, whatever a client puts there.
    expect(log).not.toMatch(/access_token/);
  });
});
