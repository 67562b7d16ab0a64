// The new-device notice (docs/security.md, "New-device notice") with a real SMTP server: a sign-in
// from a device and network not seen for the account in 90 days mails the owner once; never the first
// sign-in after registration; off with NEW_DEVICE_NOTICE=false.
import { afterEach, describe, expect, it } from 'vitest';
import { networkOf } from '../../src/auth/sessions/new-device.js';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { register } from '../support/requests.js';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtp.js';
import { totpCode } from '../support/totp.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp | undefined;
let smtp: TestSmtpServer | undefined;
afterEach(async () => {
  await t?.close();
  await smtp?.close();
  t = undefined;
  smtp = undefined;
});

async function appWithMail(env: Record<string, string> = {}): Promise<TestApp> {
  smtp = await startSmtpServer();
  t = await createTestApp({
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'timetrack@example.org', PUBLIC_URL: 'https://time.example.com', ...env },
  });
  await register(t.app, account());
  return t;
}

async function signIn(userAgent: string, remoteAddress: string): Promise<any> {
  const response = await t!.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'user-agent': userAgent },
    remoteAddress,
    payload: { email: 'ann@example.com', password: PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  await t!.ctx.services.background.drain(20_000);
  return response.json();
}

const textOf = (mail: ReceivedMail) =>
  mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=E2=86=92/g, '→')
    .replace(/=3D/g, '=');

describe('networks', () => {
  it.each([
    ['203.0.113.7', '203.0.113.0/24'],
    ['::ffff:203.0.113.200', '203.0.113.0/24'],
    ['2001:db8:1:2::1', '2001:db8:1::/48'],
  ])('%s is in %s', (address, network) => expect(networkOf(address)).toBe(network));
});

describe('the new-device notice', () => {
  it('mails once for a new device and network; never for the first sign-in, a known pair or the same network', async () => {
    await appWithMail();
    await signIn(FIREFOX, '203.0.113.7');
    await signIn(FIREFOX, '203.0.113.99');
    expect(smtp!.messages).toHaveLength(0);
    t!.clock.advance(3600);
    await signIn(IPHONE, '198.51.100.4');
    const mail = await smtp!.waitForMessage(1);
    expect(mail.to).toEqual(['ann@example.com']);
    const text = textOf(mail);
    expect(text).toMatch(/Subject: New sign-in to your timetrack account/);
    expect(text).toContain('Device:  Safari on iOS');
    expect(text).toContain('Address: 198.51.100.4');
    expect(text).toContain('Time:    2026-03-02T10:00:00.000Z (UTC)');
    expect(text).toMatch(/Settings → Security/);
    expect(text).toContain('https://time.example.com/');
    // Once: the same device and network again is known now.
    await signIn(IPHONE, '198.51.100.250');
    expect(smtp!.messages).toHaveLength(1);
    // The known device from another network is new again.
    await signIn(FIREFOX, '192.0.2.1');
    expect(smtp!.messages).toHaveLength(2);
    // Not seen for 90 days: new again.
    t!.clock.advance(91 * 86_400);
    await signIn(FIREFOX, '203.0.113.7');
    expect(smtp!.messages).toHaveLength(3);
    // Only a keyed hash is kept, never the address or the User-Agent.
    const stored = JSON.stringify(await t!.ctx.db.selectFrom('login_devices').selectAll().execute());
    expect(stored).not.toMatch(/203\.0\.113|Safari|Firefox/);
  });

  it('also for a sign-in that ends with a second factor', async () => {
    await appWithMail();
    const session = (await signIn(FIREFOX, '203.0.113.7')).token;
    const { secret } = (
      await t!.app.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: { authorization: `Bearer ${session}` }, payload: { password: PASSWORD } })
    ).json();
    await t!.app.inject({
      method: 'POST',
      url: '/api/auth/2fa/enable',
      headers: { authorization: `Bearer ${session}` },
      payload: { code: totpCode(secret, t!.clock.now()) },
    });
    t!.clock.advance(30);
    const { challenge } = await signIn(IPHONE, '198.51.100.4');
    expect(smtp!.messages).toHaveLength(0);
    const done = await t!.app.inject({
      method: 'POST',
      url: '/api/auth/login/2fa',
      headers: { 'user-agent': IPHONE },
      remoteAddress: '198.51.100.4',
      payload: { challenge, code: totpCode(secret, t!.clock.now()) },
    });
    expect(done.statusCode).toBe(200);
    await t!.ctx.services.background.drain(20_000);
    expect(textOf(await smtp!.waitForMessage(1))).toContain('Safari on iOS');
  });

  it('is off with NEW_DEVICE_NOTICE=false', async () => {
    await appWithMail({ NEW_DEVICE_NOTICE: 'false' });
    await signIn(FIREFOX, '203.0.113.7');
    await signIn(IPHONE, '198.51.100.4');
    expect(smtp!.messages).toHaveLength(0);
    expect(await t!.ctx.db.selectFrom('login_devices').selectAll().execute()).toEqual([]);
  });
});
