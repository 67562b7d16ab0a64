// Assertions on answers: the one error shape, and nothing internal in a body.
import { expect } from 'vitest';
import type { TestResponse } from './requests.js';

/** The contract's error shape (docs/api.md, Conventions), with nothing that could leak internals. */
export function expectError(response: TestResponse, status: number, code: string): any {
  expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
  const body = response.json();
  // `details` (a VALIDATION_ERROR's fields) and `entry` (the entry in the way) where they apply.
  expect(
    Object.keys(body)
      .filter((key) => key !== 'details' && key !== 'entry')
      .sort(),
  ).toEqual(['code', 'error', 'message', 'statusCode']);
  if (body.details !== undefined) {
    expect(code).toBe('VALIDATION_ERROR');
    for (const problem of body.details) expect(Object.keys(problem).sort()).toEqual(['field', 'message']);
  }
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
