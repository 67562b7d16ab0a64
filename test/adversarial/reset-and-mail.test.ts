// Reset tokens under attack, and a mail server that is slow or down.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { login, register } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function devToken(app: TestApp['app'], host?: string): Promise<{ reset_token: string; reset_url: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/request-reset',
    payload: { email: 'ann@example.com' },
    ...(host ? { headers: { host } } : {}),
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('reset tokens', () => {
  it('works while the account is locked, and clears the lock', async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development' } });
    await register(t.app);
    for (let i = 0; i < 5; i++)
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: 'wrong password!' } });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: PASSWORD } })).statusCode).toBe(423);
    const { reset_token } = await devToken(t.app);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: reset_token, new_password: 'my new long passphrase' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await login(t.app, 'ann@example.com', 'my new long passphrase')).toEqual(expect.any(String));
  });

  it('builds the link from PUBLIC_URL, never from the Host header of the request', async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:8080/' } });
    await register(t.app);
    for (const host of ['evil.example', 'time.example.com.evil.example:8443', 'localhost']) {
      const { reset_url, reset_token } = await devToken(t.app, host);
      expect(reset_url).toBe(`http://localhost:8080/password-reset?token=${reset_token}`);
    }
    const forwarded = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-reset',
      payload: { email: 'ann@example.com' },
      headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    // Forwarding headers mean a proxy: dev mode then answers no token at all (docs/security.md).
    expect(forwarded.json()).toEqual({ message: expect.any(String), delivery: 'terminal' });
  });

  it('10 parallel uses of one token give exactly one 200', async () => {
    t = await createTestApp({ env: { NODE_ENV: 'development' } });
    await register(t.app);
    const { reset_token } = await devToken(t.app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t!.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: reset_token, new_password: `parallel passphrase ${i}` } }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(400)]);
    const winner = answers.findIndex((answer) => answer.statusCode === 200);
    expect(await login(t.app, 'ann@example.com', `parallel passphrase ${winner}`)).toEqual(expect.any(String));
  });
});

/** An SMTP server that takes `delayMs` to accept each message. */
async function slowSmtpServer(delayMs: number) {
  const received: number[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () =>
        setTimeout(() => {
          received.push(Date.now());
          callback();
        }, delayMs),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('mail server slow or down', () => {
  it('answers request-reset before a slow mail server has taken the e-mail', async () => {
    const smtp = await slowSmtpServer(1500);
    try {
      t = await createTestApp({ env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'timetrack@example.org' } });
      await register(t.app);
      const response = await t.app.inject({ method: 'POST', url: '/api/auth/request-reset', payload: { email: 'ann@example.com' } });
      const answeredAt = Date.now();
      expect(response.statusCode).toBe(200);
      expect(smtp.received).toHaveLength(0);
      await t.ctx.services.background.drain(20_000);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!).toBeGreaterThan(answeredAt);
    } finally {
      await smtp.close();
    }
  });

  it('retries a failed delivery with growing delays, a bounded number of times', async () => {
    const gone = await slowSmtpServer(0);
    await gone.close(); // a port where nothing listens any more
    t = await createTestApp({
      env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(gone.port), SMTP_FROM: 'timetrack@example.org' },
      mailRetryDelaysMs: [50, 100, 200],
    });
    await register(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/request-reset', payload: { email: 'ann@example.com' } })).statusCode).toBe(200);
    await t.ctx.services.background.drain(20_000);
    const attempts = t
      .logs()
      .split('\n')
      .filter((line) => line.includes('reset e-mail failed'));
    expect(attempts).toHaveLength(4); // the first try and three retries
    expect(attempts.slice(0, 3).map((line) => JSON.parse(line).retryInMs)).toEqual([50, 100, 200]);
    expect(attempts[3]).toMatch(/giving up/);
    expect(t.ctx.services.background.size).toBe(0);
  });
});
