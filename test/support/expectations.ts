// Small helpers shared by the auth suites: requests by inject and assertions on the error shape.
import { expect } from 'vitest';
import type { App } from '../../src/http/app.js';

export interface InjectedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: () => any;
}

export function post(app: App, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<InjectedResponse> {
  return app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

export function get(app: App, url: string, headers: Record<string, string> = {}): Promise<InjectedResponse> {
  return app.inject({ method: 'GET', url, headers });
}

/** The contract's error shape (docs/api.md, Conventions), with nothing that could leak internals. */
export function expectError(response: InjectedResponse, status: number, code: string): any {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  const body = response.json();
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  expect(body).toMatchObject({ statusCode: status, code });
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expectNoInternals(response.body);
  return body;
}

/** No stack trace, SQL or argon2 hash in a response body. */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\$argon2/);
  expect(text).not.toMatch(/\bat .+\.(js|ts):\d+/);
  expect(text).not.toMatch(/SQLITE|select |insert into|update "|delete from|constraint/i);
}
