// Requests as a user: the one way tests call the HTTP API. `request` takes an in-process app
// (Fastify's inject, no socket) or a real `serve` process (fetch over loopback) and answers the same
// shape, so expectations.ts reads both alike. `asUser` binds a signed-in user's token.
import type { App } from '../../src/http/app.js';
import { account, PASSWORD, type Account, type TestApp } from './app.js';
import type { RunningServer } from './server.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface TestResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: () => any;
}

export interface RequestOptions {
  payload?: unknown;
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

export async function request(target: App | RunningServer, method: Method, url: string, options: RequestOptions = {}): Promise<TestResponse> {
  const headers = { ...options.headers, ...(options.token ? bearer(options.token) : {}) };
  if ('baseUrl' in target) {
    const response = await fetch(`${target.baseUrl}${url}`, {
      method,
      headers: { ...(options.payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: options.payload === undefined ? undefined : JSON.stringify(options.payload),
    });
    const body = await response.text();
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body, json: () => JSON.parse(body) };
  }
  return target.inject({ method, url, headers, ...(options.payload === undefined ? {} : { payload: options.payload as object }) });
}

export function get(app: App, url: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return request(app, 'GET', url, { headers });
}

export function post(app: App, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  return request(app, 'POST', url, { payload, headers });
}

export async function register(target: App | RunningServer, body: Account = account()) {
  const response = await request(target, 'POST', '/api/auth/register', { payload: body });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return response.json() as { user: { id: number; email: string } };
}

export async function login(target: App | RunningServer, email = 'ann@example.com', password = PASSWORD): Promise<string> {
  const response = await request(target, 'POST', '/api/auth/login', { payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { token: string }).token;
}

export interface SignedIn {
  userId: number;
  token: string;
  call: (method: Method, url: string, payload?: unknown) => Promise<TestResponse>;
}

/** Calls as the holder of `token`. */
export function asUser(t: TestApp, userId: number, token: string): SignedIn {
  return { userId, token, call: (method, url, payload) => request(t.app, method, url, { payload, token }) };
}

export async function signIn(t: TestApp, email = 'ann@example.com'): Promise<SignedIn> {
  const { user } = await register(t.app, account({ email }));
  return asUser(t, user.id, await login(t.app, email));
}

/** Creates a finished entry and returns its id (fails the test on any other answer). */
export async function addEntry(user: SignedIn, start_at: string, end_at: string, note?: string): Promise<number> {
  const response = await user.call('POST', '/api/time-entries', { start_at, end_at, ...(note !== undefined ? { note } : {}) });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { entry: { id: number } }).entry.id;
}
