// Several `serve` processes on one PostgreSQL database (README, "Scaling out"; docs/database.md):
// every rule holds across processes because the database states it (row locks, the exclusion
// constraint, unique indexes, the lockout's atomic reservation), not a lock one process knows.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { makeTempDir } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { bindPostgresDatabase, createPostgresDatabase, onPostgres, POSTGRES_SKIP_REASON } from '../support/database.js';
import { call, startServer, type RunningServer } from '../support/server.js';

const PASSWORD = 'correct horse battery staple';
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

/** A new database and a path that stands for it (the helpers translate `--db <path>`). */
function newDatabase(): string {
  const dbPath = path.join(makeTempDir(), 'timetrack.db');
  bindPostgresDatabase(dbPath, createPostgresDatabase());
  return dbPath;
}

async function serve(dbPath: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(dbPath, env);
  running.push(server);
  return server;
}

async function loginOn(server: RunningServer, password = PASSWORD) {
  return call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password });
}

/** Two processes on one new database; the first has migrated it, and Ann has an account. */
async function twoServers(env: Record<string, string> = {}): Promise<{ a: RunningServer; b: RunningServer; dbPath: string; token: string }> {
  const dbPath = newDatabase();
  const [a, b] = await Promise.all([serve(dbPath, env), serve(dbPath, env)]);
  expect((await call(a, 'POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
  const login = await loginOn(b);
  expect(login.status).toBe(200);
  return { a, b, dbPath, token: JSON.parse(login.text).token as string };
}

describe.skipIf(!onPostgres)('two serve processes on one PostgreSQL database', () => {
  it('both start together on a new database, and only one of them applies the migrations', async () => {
    const dbPath = newDatabase();
    const [a, b] = await Promise.all([serve(dbPath), serve(dbPath)]);
    for (const server of [a, b]) while (!server.output().includes('timetrack started')) await new Promise((resolve) => setTimeout(resolve, 20));
    const applied = [a, b].map((server) => (server.output().match(/"msg":"migration applied"/g) ?? []).length);
    expect(applied.sort((x, y) => x - y)).toEqual([0, Object.keys(migrations).length]);
    for (const server of [a, b]) expect(server.output()).toMatch(/"engine":"postgres"/);
  });

  it('a session from A works on B; logout on A is 401 on B at once', async () => {
    const { a, b, token } = await twoServers();
    expect((await call(a, 'GET', '/api/auth/me', undefined, token)).status).toBe(200);
    expect((await call(b, 'GET', '/api/auth/me', undefined, token)).status).toBe(200);
    expect((await call(a, 'POST', '/api/auth/logout', undefined, token)).status).toBe(200);
    expect((await call(b, 'GET', '/api/auth/me', undefined, token)).status).toBe(401);
  });

  it('3 failures on A and 2 on B lock the account on both; `timetrack user unlock` unlocks it for both', async () => {
    const { a, b, dbPath } = await twoServers();
    for (let i = 0; i < 3; i += 1) expect((await loginOn(a, `wrong password ${i}`)).status).toBe(401);
    expect((await loginOn(b, 'wrong password 3')).status).toBe(401);
    expect((await loginOn(b, 'wrong password 4')).status).toBe(423);
    expect((await loginOn(a)).status).toBe(423);
    expect((await loginOn(b)).status).toBe(423);
    const unlock = await runCli(['--db', dbPath, 'user', 'unlock', 'ann@example.com']);
    expect(unlock.exitCode).toBe(0);
    expect((await loginOn(a)).status).toBe(200);
    expect((await loginOn(b)).status).toBe(200);
  });

  it('30 parallel guesses split over A and B, the right one among them, verify at most 5 passwords', async () => {
    const { a, b } = await twoServers();
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 7 ? PASSWORD : `wrong guess number ${i}`));
    const responses = await Promise.all(guesses.map((password, i) => loginOn(i % 2 === 0 ? a : b, password)));
    const statuses = responses.map((r) => r.status);
    // A verified password answers 200 or 401, or the 423 of the attempt that took the last slot;
    // every other attempt found no slot and was refused unverified with the same 423.
    const unauthorized = statuses.filter((s) => s === 401).length;
    const signedIn = statuses.filter((s) => s === 200).length;
    expect(unauthorized).toBeLessThanOrEqual(4);
    expect(unauthorized + signedIn).toBeLessThanOrEqual(5);
    const locked = responses.filter((r) => r.status === 423);
    expect(locked.length + unauthorized + signedIn).toBe(30);
    expect(new Set(locked.map((r) => r.text)).size).toBe(1);
  });

  it('no sign-in on A that overlapped a password change on B keeps a session; the changing session does', async () => {
    const { a, b } = await twoServers({ LOCKOUT_ATTEMPTS: '1000', HASH_CONCURRENCY: '2' });
    const changer = JSON.parse((await loginOn(b)).text).token as string;
    const logins: Array<ReturnType<typeof loginOn>> = [];
    // The change starts once a sign-in has succeeded, while the rest are still queued for their
    // verification (so that some overlap it, however busy the machine is).
    let firstSignIn: () => void = () => {};
    const signedIn = new Promise<void>((resolve) => (firstSignIn = resolve));
    const changing = signedIn.then(() =>
      call(b, 'POST', '/api/auth/change-password', { old_password: PASSWORD, new_password: 'another fine passphrase' }, changer),
    );
    for (let i = 0; i < 40; i += 1) {
      logins.push(loginOn(a).then((r) => (r.status === 200 && firstSignIn(), r)));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const changed = await changing;
    expect(changed.status).toBe(200);
    const tokens = (await Promise.all(logins)).filter((r) => r.status === 200).map((r) => JSON.parse(r.text).token as string);
    expect(tokens.length).toBeGreaterThan(0);
    const survivors = (await Promise.all(tokens.map((token) => call(a, 'GET', '/api/auth/me', undefined, token)))).filter((r) => r.status !== 401);
    expect(survivors).toEqual([]);
    expect((await call(a, 'GET', '/api/auth/me', undefined, changer)).status).toBe(200);
  });

  it('10 overlapping entries posted in parallel through A and B store exactly one', async () => {
    const { a, b, token } = await twoServers();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/api/time-entries', { start_at: `2026-03-02T08:0${i}:00.000Z`, end_at: '2026-03-02T12:00:00.000Z' }, token),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).every((r) => JSON.parse(r.text).code === 'OVERLAP')).toBe(true);
    const list = JSON.parse((await call(a, 'GET', '/api/time-entries?from=2026-03-01&to=2026-03-05', undefined, token)).text);
    expect(list.entries ?? list).toHaveLength(1);
  });

  it('8 parallel timer starts through A and B run one timer', async () => {
    const { a, b, token } = await twoServers();
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => call(i % 2 === 0 ? a : b, 'POST', '/api/time-entries/start', {}, token)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).map((r) => JSON.parse(r.text).code)).toEqual(Array(7).fill('ALREADY_RUNNING'));
  });

  it('10 parallel registrations of one e-mail in mixed case through A and B create one account, the rest 409 EMAIL_TAKEN', async () => {
    const dbPath = newDatabase();
    const [a, b] = await Promise.all([serve(dbPath), serve(dbPath)]);
    const emails = ['carl@example.com', 'Carl@example.com', 'CARL@EXAMPLE.COM', 'carl@Example.com', 'cArl@example.com'];
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/api/auth/register', { email: emails[i % emails.length], password: PASSWORD, full_name: 'Carl' }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).map((r) => JSON.parse(r.text).code)).toEqual(Array(9).fill('EMAIL_TAKEN'));
    const list = await runCli(['--db', dbPath, '--json', 'user', 'list']);
    expect(JSON.parse(String(list.stdout)).users).toHaveLength(1);
  });

  it('the per-day totals stay equal to the entries under parallel writes from A and B', async () => {
    const { a, b, token } = await twoServers();
    // Twenty one-hour entries on one day, written in parallel through both processes, then half deleted.
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const start = new Date(Date.UTC(2026, 2, 2, 0, 0) + i * 70 * 60_000);
        return call(
          i % 2 === 0 ? a : b,
          'POST',
          '/api/time-entries',
          { start_at: start.toISOString(), end_at: new Date(start.getTime() + 60 * 60_000).toISOString() },
          token,
        );
      }),
    );
    expect(created.every((r) => r.status === 201)).toBe(true);
    const ids = created.map((r) => JSON.parse(r.text).entry.id as number);
    const deleted = await Promise.all(
      ids.filter((_, i) => i % 2 === 1).map((id, i) => call(i % 2 === 0 ? b : a, 'DELETE', `/api/time-entries/${id}`, undefined, token)),
    );
    expect(deleted.every((r) => r.status === 204 || r.status === 200)).toBe(true);
    const week = JSON.parse((await call(b, 'GET', '/api/stats/week?date=2026-03-02', undefined, token)).text);
    const minutes = (week.days as Array<{ date: string; worked_minutes: number }>)
      .filter((day) => day.date.startsWith('2026-03-0'))
      .reduce((sum, day) => sum + day.worked_minutes, 0);
    expect(minutes).toBe(10 * 60);
  });
});

describe.skipIf(onPostgres)('PostgreSQL', () => {
  it.skip(POSTGRES_SKIP_REASON, () => {});
});
