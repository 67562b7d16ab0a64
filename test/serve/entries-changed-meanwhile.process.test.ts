// An entry changed on another device while it was open in an editor (docs/api.md, "Changed meanwhile"):
// a PATCH or DELETE that names the `updated_at` it read is refused with 409 ENTRY_CHANGED and the
// entry as it is now, never written over. Through a real `timetrack serve` process and HTTP, on SQLite,
// or on PostgreSQL with TIMETRACK_TEST_DATABASE_URL.
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { request, type TestResponse } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const PASSWORD = 'correct horse battery staple';
let server: RunningServer;
let counter = 0;

beforeAll(async () => {
  server = await startServer(path.join(makeTempDir('timetrack-changed-'), 'timetrack.db'));
});
afterAll(async () => {
  await server?.stop();
});

type Call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => Promise<TestResponse>;

/** A new account with two signed-in devices (two sessions of one account). */
async function twoDevices(): Promise<{ phone: Call; desk: Call }> {
  counter += 1;
  const email = `changed${process.pid}-${counter}@example.com`;
  const registered = await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: `Changed ${counter}` } });
  expect(registered.statusCode, registered.body).toBe(201);
  const device = async (): Promise<Call> => {
    const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
    return (method, url, payload) => request(server, method, url, { payload, token });
  };
  return { phone: await device(), desk: await device() };
}

interface Entry {
  id: number;
  start_at: string;
  end_at: string | null;
  note: string;
  created_at: string;
  updated_at: string;
  auto_stopped: boolean;
}

/** An entry of an hour, yesterday morning (UTC): both devices read it. */
async function anEntry(call: Call, note = 'from the desk'): Promise<Entry> {
  const start = DateTime.utc().minus({ days: 1 }).set({ hour: 8, minute: 0, second: 0, millisecond: 0 });
  const created = await call('POST', '/api/time-entries', { start_at: start.toISO(), end_at: start.plus({ hours: 1 }).toISO(), note });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().entry;
}

async function stored(call: Call, id: number): Promise<Entry> {
  const response = await call('GET', `/api/time-entries/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().entry;
}

describe('an entry changed on another device meanwhile', () => {
  it('a PATCH naming the version it read is refused once another device changed it: 409 ENTRY_CHANGED with the entry as it is now', async () => {
    const { phone, desk } = await twoDevices();
    const seen = await anEntry(desk);
    // The phone changes the note while the desk's editor is open.
    const byPhone = await phone('PATCH', `/api/time-entries/${seen.id}`, { note: 'from the phone', expected_updated_at: seen.updated_at });
    expect(byPhone.statusCode, byPhone.body).toBe(200);
    const now: Entry = byPhone.json().entry;
    expect(Date.parse(now.updated_at)).toBeGreaterThan(Date.parse(seen.updated_at));

    // The desk saves what its editor holds, naming the version it read: refused, and nothing written.
    const byDesk = await desk('PATCH', `/api/time-entries/${seen.id}`, { note: 'the desk again', end_at: seen.end_at, expected_updated_at: seen.updated_at });
    expect(byDesk.statusCode, byDesk.body).toBe(409);
    expect(byDesk.json()).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'ENTRY_CHANGED' });
    expect(byDesk.json().entry).toEqual(now);
    expect(await stored(desk, seen.id)).toEqual(now);

    // Sent again with the version it now holds, the desk's change replaces the phone's.
    const again = await desk('PATCH', `/api/time-entries/${seen.id}`, { note: 'the desk again', expected_updated_at: byDesk.json().entry.updated_at });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().entry.note).toBe('the desk again');
    // Without expected_updated_at the last write wins, as before (scripts).
    const script = await phone('PATCH', `/api/time-entries/${seen.id}`, { note: 'a script' });
    expect(script.statusCode, script.body).toBe(200);
  });

  it('a DELETE naming the version it read keeps an entry changed meanwhile; one deleted meanwhile is 404', async () => {
    const { phone, desk } = await twoDevices();
    const seen = await anEntry(desk);
    const byPhone = await phone('PATCH', `/api/time-entries/${seen.id}`, { note: 'still needed' });
    expect(byPhone.statusCode, byPhone.body).toBe(200);
    const stale = await desk('DELETE', `/api/time-entries/${seen.id}?expected_updated_at=${encodeURIComponent(seen.updated_at)}`);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'ENTRY_CHANGED', entry: { id: seen.id, note: 'still needed', updated_at: byPhone.json().entry.updated_at } });
    expect((await stored(desk, seen.id)).note).toBe('still needed');

    const current = byPhone.json().entry as Entry;
    expect((await phone('DELETE', `/api/time-entries/${seen.id}?expected_updated_at=${encodeURIComponent(current.updated_at)}`)).statusCode).toBe(204);
    // Deleted on the phone: the desk's save and delete find nothing.
    expect((await desk('PATCH', `/api/time-entries/${seen.id}`, { note: 'x', expected_updated_at: current.updated_at })).statusCode).toBe(404);
    expect((await desk('DELETE', `/api/time-entries/${seen.id}?expected_updated_at=${encodeURIComponent(current.updated_at)}`)).statusCode).toBe(404);
  });

  it('the version is an instant: another spelling of it is the same version; what is not an instant is 400 naming the field', async () => {
    const { desk } = await twoDevices();
    const seen = await anEntry(desk);
    const offset = DateTime.fromISO(seen.updated_at, { setZone: true }).setZone('UTC+2').toISO();
    const same = await desk('PATCH', `/api/time-entries/${seen.id}`, { note: 'same instant', expected_updated_at: offset });
    expect(same.statusCode, same.body).toBe(200);
    const bad = await desk('PATCH', `/api/time-entries/${seen.id}`, { note: 'x', expected_updated_at: 'yesterday' });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ field: 'expected_updated_at' })]);
    expect((await desk('DELETE', `/api/time-entries/${seen.id}?expected_updated_at=soon`)).statusCode).toBe(400);
    expect((await stored(desk, seen.id)).note).toBe('same instant');
  });

  it('two devices saving the same version at once: one is written, the other is 409 with the first one', async () => {
    const { phone, desk } = await twoDevices();
    const seen = await anEntry(desk);
    const answers = await Promise.all([
      phone('PATCH', `/api/time-entries/${seen.id}`, { note: 'phone', expected_updated_at: seen.updated_at }),
      desk('PATCH', `/api/time-entries/${seen.id}`, { note: 'desk', expected_updated_at: seen.updated_at }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const written = answers.find((answer) => answer.statusCode === 200)!.json().entry as Entry;
    const refused = answers.find((answer) => answer.statusCode === 409)!.json();
    expect(refused.code).toBe('ENTRY_CHANGED');
    expect(refused.entry).toEqual(written);
    expect(await stored(desk, seen.id)).toEqual(written);
  });

  it('the OpenAPI document names the field of PATCH and the query of DELETE, and 409 on both', async () => {
    const doc = (await request(server, 'GET', '/api/openapi.json')).json();
    const operations = doc.paths['/api/time-entries/{id}'];
    expect(Object.keys(operations.patch.requestBody.content['application/json'].schema.properties)).toContain('expected_updated_at');
    expect(operations.delete.parameters.map((parameter: { name: string }) => parameter.name)).toContain('expected_updated_at');
    expect(Object.keys(operations.patch.responses)).toContain('409');
    expect(Object.keys(operations.delete.responses)).toContain('409');
  });
});
