// The per-address limit of the sign-in routes against a client that owns many IPv6 addresses
// (docs/security.md, "floods from one address"): a real `serve` behind a trusted proxy (the client
// is the address the proxy appended to X-Forwarded-For) counts every IPv6 client under its /64, its
// /56 (4 budgets) and its /48 (16 budgets), so cycling through the /64s of one subscriber's prefix
// gains at most that; and the store never drops a live window to make room: full, it refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedRateLimitStore } from '../../src/http/rate-limit-store.js';
import { tempDb } from '../support/cli-accounts.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const BUDGET = 2;

describe('IPv6 prefixes against a real server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(tempDb(), { LOG_LEVEL: 'warn', RATE_LIMIT_AUTH: String(BUDGET), TRUST_PROXY: 'true', LOCKOUT_ATTEMPTS: '1000' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const attempt = async (client: string) =>
    (
      await request(server, 'POST', '/api/auth/login', {
        payload: { email: 'nobody@example.com', password: 'not the password' },
        headers: { 'x-forwarded-for': client },
      })
    ).statusCode;

  it('counts a /56: cycling its /64s gets 4 budgets, then every /64 of it is refused', async () => {
    const statuses: number[] = [];
    // 2001:db8:0:100::/56 holds the /64s 2001:db8:0:100:: to 2001:db8:0:1ff::.
    for (let i = 0; i < 4 * BUDGET + 3; i += 1) statuses.push(await attempt(`2001:db8:0:1${i.toString(16).padStart(2, '0')}::1`));
    expect(statuses.filter((status) => status === 401)).toHaveLength(4 * BUDGET);
    expect(statuses.slice(4 * BUDGET)).toEqual([429, 429, 429]);
    // A neighbouring /56 of the same /48 still has budget.
    expect(await attempt('2001:db8:0:200::1')).toBe(401);
  });

  it('counts a /48: cycling its /56s gets 16 budgets, then every address in it is refused', async () => {
    const statuses: number[] = [];
    // One request from each of many /56s of 2001:db8:1::/48.
    for (let i = 1; i <= 16 * BUDGET + 2; i += 1) statuses.push(await attempt(`2001:db8:1:${(i * 256).toString(16)}::1`));
    expect(statuses.filter((status) => status === 401)).toHaveLength(16 * BUDGET);
    expect(statuses.slice(16 * BUDGET)).toEqual([429, 429]);
    const refused = await request(server, 'POST', '/api/auth/login', {
      payload: { email: 'x@example.com', password: 'not the password' },
      headers: { 'x-forwarded-for': '2001:db8:1:ff00::7' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another /48, and an IPv4 client, are counted on their own.
    expect(await attempt('2001:db8:2::1')).toBe(401);
    expect(await attempt('198.51.100.7')).toBe(401);
  });
});

describe('the store when full', () => {
  const incr = (store: SharedRateLimitStore, key: string) =>
    new Promise<{ current: number; ttl: number }>((resolve) => store.incr(key, (_error, result) => resolve(result!), 60_000, BUDGET));

  it('never drops a live window: a new client is refused until windows end, the counted ones keep their counts', async () => {
    const store = new SharedRateLimitStore(undefined, 10);
    for (let i = 0; i < 10; i += 1) expect((await incr(store, `192.0.2.${i}`)).current).toBe(1);
    // Full: the eleventh client is refused (current over the budget) instead of evicting the first.
    const refused = await incr(store, '192.0.2.200');
    expect(refused.current).toBeGreaterThan(BUDGET);
    expect(refused.ttl).toBeGreaterThan(0);
    // The first client's window is still there: its second and third requests count on.
    expect((await incr(store, '192.0.2.0')).current).toBe(2);
    expect((await incr(store, '192.0.2.0')).current).toBe(3);
  });

  it('an IPv6 client over its /56 or /48 budget makes no new windows for its /64s (it cannot fill the store)', async () => {
    const store = new SharedRateLimitStore(undefined, 100);
    // 300 /64s, one request each, over many /56s of one /48: at most 1 + 32 + 32 windows are made.
    for (let i = 0; i < 300; i += 1) await incr(store, `2001:db8:5:${(i * 64).toString(16)}::/64`);
    expect((await incr(store, '2001:db8:5:ffff::/64')).current).toBeGreaterThan(BUDGET);
    // Room is left for everyone else.
    expect((await incr(store, '203.0.113.9')).current).toBe(1);
    expect((await incr(store, '2001:db8:6::/64')).current).toBe(1);
  });
});
