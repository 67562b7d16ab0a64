// Signed-in users and a short way to call the time-tracking routes.
import type { LightMyRequestResponse } from 'fastify';
import { account, bearer, login, register, type TestApp } from './app.js';

export interface SignedIn {
  userId: number;
  token: string;
  call: (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => Promise<LightMyRequestResponse>;
}

/** Calls as the holder of `token`. */
export function withToken(t: TestApp, userId: number, token: string): SignedIn {
  return {
    userId,
    token,
    call: (method, url, payload) => t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) }),
  };
}

export async function signIn(t: TestApp, email = 'ann@example.com'): Promise<SignedIn> {
  const { user } = await register(t.app, account({ email }));
  return withToken(t, user.id, await login(t.app, email));
}

/** Creates a finished entry and returns its id (fails the test on any other answer). */
export async function addEntry(user: SignedIn, start_at: string, end_at: string, note?: string): Promise<number> {
  const response = await user.call('POST', '/api/time-entries', { start_at, end_at, ...(note !== undefined ? { note } : {}) });
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { entry: { id: number } }).entry.id;
}
