// Wrong two-factor codes and wrong passwords of a signed-in session, through a real `timetrack serve`
// (docs/security.md, "Guessing codes" and "a stolen session and the password"): codes count apart from
// passwords, and neither a reset by e-mail, a password change nor `user unlock` clears their count;
// each lock is longer than the last; at 100 wrong codes in a row only a recovery code signs in; the
// owner is mailed at the first lock; and one count per session over the five routes that take the
// password with a session, the third wrong one revoking it without locking the owner's sign-in.
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { queryRows } from '../support/database.js';
import { sharedMailingServer } from '../support/mailing-server.js';
import { uniqueEmail, type RunningServer } from '../support/server.js';
import { resetLinkOf } from '../support/smtp.js';
import { totpCode, wrongCode } from '../support/totp.js';

const NEW_PASSWORD = 'another long passphrase 2026';
const THIRD_PASSWORD = 'a third long passphrase 2026';

// Two servers for the file (docs/testing.md, "How fast"), each case with an account of its own (what
// the cases count, wrong codes and passwords, locks and mails, is the account's): one with the default
// lock of wrong codes, and one whose first lock lasts a second.
const defaultLock = sharedMailingServer();
const shortLock = sharedMailingServer({ TWO_FACTOR_LOCK: '1s' });
/** The rows of one account's count of wrong codes: this, with the account's address as its parameter. */
const OWN_FAILURES = 'from two_factor_failures where user_id in (select id from users where email = ?)';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: any;
}

async function call(server: RunningServer, method: string, url: string, options: { body?: unknown; token?: string } = {}): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text ? JSON.parse(text) : undefined };
}

async function signIn(server: RunningServer, email = 'ann@example.com', password = PASSWORD): Promise<string> {
  const answer = await call(server, 'POST', '/api/auth/login', { body: { email, password } });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

/** A new account (registered), signed in; with `twoFactor`, two-factor sign-in on. */
async function account(server: RunningServer, email: string, twoFactor: boolean) {
  expect((await call(server, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, full_name: 'Ann' } })).status).toBe(201);
  const session = await signIn(server, email);
  if (!twoFactor) return { session, secret: '', recoveryCodes: [] as string[] };
  const setup = await call(server, 'POST', '/api/auth/2fa/setup', { token: session, body: { password: PASSWORD } });
  expect(setup.status).toBe(200);
  const enabled = await call(server, 'POST', '/api/auth/2fa/enable', { token: session, body: { code: totpCode(setup.body.secret, Date.now()) } });
  expect(enabled.status).toBe(200);
  return { session, secret: setup.body.secret as string, recoveryCodes: enabled.body.recovery_codes as string[] };
}

async function challengeOf(server: RunningServer, email: string, password = PASSWORD): Promise<string> {
  const answer = await call(server, 'POST', '/api/auth/login', { body: { email, password } });
  expect(answer.status).toBe(200);
  return answer.body.challenge as string;
}

const secondStep = (server: RunningServer, challenge: string, code: string) => call(server, 'POST', '/api/auth/login/2fa', { body: { challenge, code } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let seed = 0;
const wrong = (secret: string) => wrongCode(secret, Date.now(), (seed += 1));

describe('wrong two-factor codes, against a real server', () => {
  it('count apart from passwords: a password change, a reset by e-mail and user unlock leave the count; the owner is mailed at the lock; 2fa-reset clears it', async () => {
    const { server, dbPath, smtp } = await defaultLock();
    const email = uniqueEmail();
    const { session, secret } = await account(server, email, true);

    expect((await secondStep(server, await challengeOf(server, email), wrong(secret))).status).toBe(403);
    const changed = await call(server, 'POST', '/api/auth/change-password', { token: session, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(changed.status).toBe(200);
    expect((await secondStep(server, await challengeOf(server, email, NEW_PASSWORD), wrong(secret))).status).toBe(403);
    expect((await call(server, 'POST', '/api/auth/request-reset', { body: { email } })).status).toBe(200);
    const resetToken = resetLinkOf(await smtp.waitForMessageTo(email, 1)).searchParams.get('token')!;
    expect((await call(server, 'POST', '/api/auth/reset-password', { body: { token: resetToken, new_password: THIRD_PASSWORD } })).status).toBe(200);
    expect((await secondStep(server, await challengeOf(server, email, THIRD_PASSWORD), wrong(secret))).status).toBe(403);
    expect((await cliInProcess(dbPath, ['user', 'unlock', email])).exitCode).toBe(0);

    // The fourth wrong code in a row, whatever came between: locked, and a right code is refused too.
    const challenge = await challengeOf(server, email, THIRD_PASSWORD);
    const locked = await secondStep(server, challenge, wrong(secret));
    expect(locked).toMatchObject({ status: 423, body: { code: 'ACCOUNT_LOCKED' } });
    expect(Number(locked.retryAfter)).toBeGreaterThanOrEqual(50);
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(60);
    expect((await secondStep(server, challenge, totpCode(secret, Date.now() + 30_000))).status).toBe(423);
    const notice = await smtp.waitForMessageTo(email, 2);
    expect(notice.to).toEqual([email]);
    expect(notice.raw).toMatch(/Subject: Wrong two-factor codes on your timetrack account/);

    // Only `user 2fa-reset` (or a right code, or a recovery code) ends the run: setting it up again is not refused.
    expect((await cliInProcess(dbPath, ['user', '2fa-reset', email])).exitCode).toBe(0);
    const again = await signIn(server, email, THIRD_PASSWORD);
    const setup = await call(server, 'POST', '/api/auth/2fa/setup', { token: again, body: { password: THIRD_PASSWORD } });
    expect((await call(server, 'POST', '/api/auth/2fa/enable', { token: again, body: { code: wrong(setup.body.secret) } })).status).toBe(403);
  });

  it('each lock is longer than the one before; the first is mailed once; a right code after a lock ends the run', async () => {
    const { server, dbPath, smtp } = await shortLock();
    const email = uniqueEmail();
    const { secret } = await account(server, email, true);
    const challenge = await challengeOf(server, email);
    const lockAfterFour = async (): Promise<Answer> => {
      for (let i = 0; i < 3; i += 1) expect((await secondStep(server, challenge, wrong(secret))).status).toBe(403);
      const lock = await secondStep(server, challenge, wrong(secret));
      expect(lock.status).toBe(423);
      return lock;
    };
    const first = await lockAfterFour();
    await sleep(1_100);
    const second = await lockAfterFour();
    expect(Number(first.retryAfter)).toBe(1);
    expect(Number(second.retryAfter)).toBe(2);
    await sleep(2_100);
    const third = await lockAfterFour();
    expect(Number(third.retryAfter)).toBe(4);
    await sleep(4_100);
    expect((await secondStep(server, challenge, totpCode(secret, Date.now() + 30_000))).status).toBe(200);
    // The run ended: the next wrong code is one of four again, not a lock of eight seconds.
    expect((await secondStep(server, await challengeOf(server, email), wrong(secret))).status).toBe(403);
    await smtp.waitForMessageTo(email, 1);
    await sleep(500);
    expect(smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(1);
    // Each of the three locks is one row of the audit trail, written when it started.
    const listed = await cliInProcess(dbPath, ['--json', 'audit', 'list', '--user', email, '--limit', '1000']);
    expect(listed.exitCode, String(listed.stderr)).toBe(0);
    const rows = (JSON.parse(String(listed.stdout)) as { events: { action: string; detail: { lock?: number } }[] }).events;
    expect(
      rows
        .filter((row) => row.action === 'two_factor_locked')
        .map((row) => row.detail.lock)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  it('after 100 wrong codes in a row only a recovery code signs in; the recovery code ends the run', async () => {
    const { server, dbPath } = await shortLock();
    const email = uniqueEmail();
    const { secret, recoveryCodes } = await account(server, email, true);
    const challenge = await challengeOf(server, email);
    expect((await secondStep(server, challenge, wrong(secret))).status).toBe(403);
    // 98 more wrong codes would take 24 locks of 1 s, 2 s, 4 s …: the count is planted instead, no lock on.
    await queryRows(
      dbPath,
      `update two_factor_failures set consecutive = 98, since_lock = 0, locks = 24, locked_until = null where user_id in (select id from users where email = ?)`,
      [email],
    );
    expect((await secondStep(server, challenge, wrong(secret))).status).toBe(403);
    const capped = await secondStep(server, challenge, wrong(secret));
    expect(capped).toMatchObject({ status: 423, retryAfter: null, body: { code: 'ACCOUNT_LOCKED', message: expect.stringMatching(/recovery code/) } });
    expect((await queryRows<{ consecutive: number }>(dbPath, `select consecutive ${OWN_FAILURES}`, [email]))[0]?.consecutive).toBe(100);
    expect((await secondStep(server, challenge, totpCode(secret, Date.now() + 30_000))).status).toBe(423);
    expect((await cliInProcess(dbPath, ['user', 'unlock', email])).exitCode).toBe(0);
    expect((await secondStep(server, challenge, totpCode(secret, Date.now() + 30_000))).status).toBe(423);
    const byRecovery = await secondStep(server, challenge, recoveryCodes[0]!);
    expect(byRecovery.status).toBe(200);
    expect((await queryRows(dbPath, `select * ${OWN_FAILURES}`, [email])).length).toBe(0);
    expect((await secondStep(server, await challengeOf(server, email), totpCode(secret, Date.now() + 30_000))).status).toBe(200);
  });
});

describe("one count of a session's wrong passwords, against a real server", () => {
  type Route = { name: string; method: string; url: string; body: (secret: string) => Record<string, unknown>; twoFactor: boolean };
  const routes: Route[] = [
    {
      name: 'change-password',
      method: 'POST',
      url: '/api/auth/change-password',
      body: () => ({ old_password: 'wrong', new_password: NEW_PASSWORD }),
      twoFactor: false,
    },
    { name: '2fa set-up', method: 'POST', url: '/api/auth/2fa/setup', body: () => ({ password: 'wrong' }), twoFactor: false },
    {
      name: '2fa disable',
      method: 'POST',
      url: '/api/auth/2fa/disable',
      body: (secret) => ({ password: 'wrong', code: totpCode(secret, Date.now()) }),
      twoFactor: true,
    },
    {
      name: 'new recovery codes',
      method: 'POST',
      url: '/api/auth/2fa/recovery-codes',
      body: (secret) => ({ password: 'wrong', code: totpCode(secret, Date.now()) }),
      twoFactor: true,
    },
    { name: 'closing the account', method: 'DELETE', url: '/api/auth/account', body: () => ({ password: 'wrong' }), twoFactor: false },
  ];

  // The file's server with the default lock: each case has an account of its own, and what it counts
  // (a session's wrong passwords, the sign-in lock) is the account's.
  const emailOf = (name: string) => uniqueEmail(name.replace(/[^a-z0-9]+/g, '-'));

  it.each(routes)('$name: the third wrong password revokes the session, and the owner can still sign in', async (route) => {
    const { server } = await defaultLock();
    const email = emailOf(route.name);
    const { session, secret, recoveryCodes } = await account(server, email, route.twoFactor);
    for (let i = 0; i < 2; i += 1) {
      expect(await call(server, route.method, route.url, { token: session, body: route.body(secret) })).toMatchObject({
        status: 403,
        body: { code: 'INVALID_PASSWORD' },
      });
    }
    expect((await call(server, route.method, route.url, { token: session, body: route.body(secret) })).status).toBe(401);
    expect((await call(server, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    // Two more wrong passwords from another session: LOCKOUT_ATTEMPTS (5) in all, and sign-in is not locked.
    const login = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    const token = login.body.token ?? (await secondStep(server, login.body.challenge, recoveryCodes[0]!)).body.token;
    for (let i = 0; i < 2; i += 1) expect((await call(server, route.method, route.url, { token, body: route.body(secret) })).status).toBe(403);
    const last = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(last.status).toBe(200);
  });

  it('counts across the routes: one wrong password on each of three routes revokes the session', async () => {
    const { server } = await defaultLock();
    const email = emailOf('across the routes');
    const { session } = await account(server, email, false);
    const wrongOn = (method: string, url: string, body: unknown) => call(server, method, url, { token: session, body });
    expect((await wrongOn('POST', '/api/auth/change-password', { old_password: 'wrong', new_password: NEW_PASSWORD })).status).toBe(403);
    expect((await wrongOn('POST', '/api/auth/2fa/setup', { password: 'wrong' })).status).toBe(403);
    expect((await wrongOn('DELETE', '/api/auth/account', { password: 'wrong' })).status).toBe(401);
    expect((await call(server, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    expect((await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).status).toBe(200);
  });
});
