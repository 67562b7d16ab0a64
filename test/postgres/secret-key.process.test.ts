// Moving to PostgreSQL keeps two-factor sign-in (docs/operations.md, "Moving to PostgreSQL"): a SQLite
// install's two-factor secrets are sealed under its `<db>.secret-key`; `db copy` carries them (and
// re-seals old-style ones) and says what to carry; `serve` on PostgreSQL with a NEW JWT_SECRET and
// SECRET_KEY = that file's contents signs in with a code. Without SECRET_KEY: a misconfiguration
// answer, counted against nobody. Real `serve` processes over HTTP, a real SQLite file and PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/auth/secret-box.js';
import { createContext } from '../../src/composition-root.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { createPostgresDatabase, onPostgres, psql } from '../support/database.js';
import { callJson, freePort } from '../support/server.js';
import { totpCode } from '../support/totp.js';

type Server = { baseUrl: string; output: () => string; stop: () => Promise<unknown> };
const running: Server[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

/** `timetrack serve` with exactly these settings (no engine rewriting), once /api/health answers. */
async function serve(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = execa('node', [BIN, 'serve', '--port', String(port)], {
    env: cleanEnv({ LOG_LEVEL: 'info', RATE_LIMIT_AUTH: '0', ...env }),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    all: true,
  });
  let output = '';
  child.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    if (
      await fetch(`${baseUrl}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null) throw new Error(`serve ended:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const server = {
    baseUrl,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
  running.push(server);
  return server;
}

/** Password, then a code of the next TOTP step (one step of drift is accepted; never a used step). */
async function signIn(server: Server, email: string, secret: string) {
  const first = await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  return callJson(server, 'POST', '/api/auth/login/2fa', { challenge: first.body.challenge, code: totpCode(secret, Date.now() + 30_000) });
}

async function withTwoFactor(server: Server, email: string): Promise<string> {
  expect((await callJson(server, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: email })).status).toBe(201);
  const token = (await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token as string;
  const setup = await callJson(server, 'POST', '/api/auth/2fa/setup', { password: PASSWORD }, token);
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  expect((await callJson(server, 'POST', '/api/auth/2fa/enable', { code: totpCode(secret, Date.now()) }, token)).status).toBe(200);
  return secret;
}

/** Seals ben's secret again the old way (under the key derived from the JWT secret file), and forgets the used steps. */
async function sealOldStyle(db: string, secret: string): Promise<void> {
  const jwt = Buffer.from(fs.readFileSync(`${db}.jwt-secret`, 'utf8').trim(), 'hex');
  const old = createSecretBox({ sealingSecret: () => undefined, sessionSecret: () => jwt });
  const ctx = await createContext({ env: { TIMETRACK_DB: db, LOG_LEVEL: 'silent' } });
  try {
    const ben = await ctx.db.selectFrom('users').select('id').where('email', '=', 'ben@example.com').executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('two_factor')
      .set({ secret_ciphertext: old.seal(secret, `two-factor:${ben.id}`) })
      .where('user_id', '=', ben.id)
      .execute();
    await ctx.db.updateTable('two_factor').set({ last_used_step: null }).execute();
  } finally {
    await ctx.close();
  }
}

describe.skipIf(!onPostgres)('SECRET_KEY: moving a two-factor install to PostgreSQL', () => {
  it('db copy carries the secrets (re-sealing old ones); serve with a new JWT_SECRET and SECRET_KEY signs in; without SECRET_KEY a misconfiguration, counted against nobody', async () => {
    const db = path.join(makeTempDir(), 'timetrack.db');
    const sqlite = await serve({ TIMETRACK_DB: db });
    const annSecret = await withTwoFactor(sqlite, 'ann@example.com');
    const benSecret = await withTwoFactor(sqlite, 'ben@example.com');
    await sqlite.stop();
    expect(fs.statSync(`${db}.secret-key`).mode & 0o777).toBe(0o600);

    // An old-style sealed secret is re-sealed at the start of serve, and still signs in.
    await sealOldStyle(db, benSecret);
    const again = await serve({ TIMETRACK_DB: db });
    expect(again.output()).toMatch(/"resealed":1,"total":2,.*re-sealed the two-factor secrets/);
    expect((await signIn(again, 'ben@example.com', benSecret)).status).toBe(200);
    await again.stop();

    // db copy re-seals an old-style one while copying, and says what to carry (never the value).
    await sealOldStyle(db, benSecret);
    const url = createPostgresDatabase();
    const copy = await execa('node', [BIN, 'db', 'copy', '--to', url], {
      env: cleanEnv({ TIMETRACK_DB: db }),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(copy.exitCode, copy.stderr).toBe(0);
    const key = fs.readFileSync(`${db}.secret-key`, 'utf8').trim();
    expect(copy.stdout).toContain(
      `copied 2 two-factor secrets sealed under this install's secret key: set SECRET_KEY in the target's env file to the contents of ${db}.secret-key (docs/operations.md, "Moving to PostgreSQL")`,
    );
    expect(copy.stdout).not.toContain(key);

    const newJwtSecret = 'a brand-new jwt secret for postgres 0123456789abcdef';
    const pg = await serve({ DATABASE_URL: url, JWT_SECRET: newJwtSecret, SECRET_KEY: key });
    expect(pg.output()).not.toContain('SECRET_KEY is not set');
    const ann = await signIn(pg, 'ann@example.com', annSecret);
    expect(ann.status, JSON.stringify(ann.body)).toBe(200);
    expect((await signIn(pg, 'ben@example.com', benSecret)).status).toBe(200);
    await pg.stop();

    // The operator forgot SECRET_KEY: a warning at start; a right code is a misconfiguration (500), never a failed attempt.
    const forgot = await serve({ DATABASE_URL: url, JWT_SECRET: newJwtSecret });
    expect(forgot.output()).toContain('SECRET_KEY is not set');
    for (let i = 0; i < 6; i += 1) {
      const refused = await signIn(forgot, 'ann@example.com', annSecret);
      expect(refused.status).toBe(500);
      expect(refused.body.code).toBe('SERVER_MISCONFIGURED');
    }
    expect(psql(`select failed_attempts, locked_until from auth_info join users on users.id = auth_info.user_id where email = 'ann@example.com'`, url)).toMatch(
      /^0\|?\s*$/m,
    );
    expect(forgot.output()).toContain("a two-factor secret does not open with this server's keys: set SECRET_KEY");
    expect(forgot.output()).not.toContain('login_failed');

    // timetrack check counts the sealed secrets that do not open; with SECRET_KEY every one opens.
    const check = (env: Record<string, string>) => execa('node', [BIN, 'check'], { env: cleanEnv(env), extendEnv: false, reject: false, stdin: 'ignore' });
    const without = await check({ DATABASE_URL: url, JWT_SECRET: newJwtSecret });
    expect(without.stdout).toMatch(/^PROBLEM secret key: 2 of 2 sealed two-factor secrets do not open with this server's keys: set SECRET_KEY/m);
    const withKey = await check({ DATABASE_URL: url, JWT_SECRET: newJwtSecret, SECRET_KEY: key });
    expect(withKey.stdout).toMatch(/^ok\s+secret key: SECRET_KEY from the settings; 2 of 2 sealed secrets open$/m);
  }, 120_000);
});
