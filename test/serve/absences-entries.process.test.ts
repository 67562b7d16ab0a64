// Absences booked together and the timer's rules, through a real `timetrack serve` process and HTTP
// (docs/time-model.md, Bookings of absences; Forgotten timer; docs/api.md). The server has the real
// clock: the dates here are counted from today.
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
  server = await startServer(path.join(makeTempDir('timetrack-bookings-'), 'timetrack.db'));
});
afterAll(async () => {
  await server?.stop();
});

interface Person {
  call: (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => Promise<TestResponse>;
}

/** A new account on the server, signed in; its zone UTC. */
async function person(): Promise<Person> {
  counter += 1;
  const email = `booker${process.pid}-${counter}@example.com`;
  expect((await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: `Booker ${counter}` } })).statusCode).toBe(
    201,
  );
  const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
  return { call: (method, url, payload) => request(server, method, url, { payload, token }) };
}

/** The Monday `weeks` weeks from this one. */
const monday = (weeks: number) => DateTime.utc().startOf('week').plus({ weeks });
const iso = (date: DateTime) => date.toISODate() as string;

interface Absence {
  id: number;
  date: string;
  request_id: number;
}

async function absences(who: Person): Promise<Absence[]> {
  return (await who.call('GET', `/api/time-entries/absences?from=${iso(monday(1))}`)).json().absences;
}

describe('absences booked together', () => {
  it('a range is one booking; deleting it removes exactly its days and nothing booked separately', async () => {
    const ann = await person();
    // Three days of vacation booked one by one, Monday to Wednesday next week, then a range of the
    // Thursday and Friday: five days in a row, of one kind, but four bookings.
    const singles: Absence[] = [];
    for (const day of [0, 1, 2]) {
      const response = await ann.call('POST', '/api/time-entries/absences', { date: iso(monday(1).plus({ days: day })), type: 'vacation' });
      expect(response.statusCode, response.body).toBe(201);
      singles.push(response.json().absence);
    }
    const range = await ann.call('POST', '/api/time-entries/absences', {
      from: iso(monday(1).plus({ days: 3 })),
      to: iso(monday(1).plus({ days: 4 })),
      type: 'vacation',
    });
    expect(range.statusCode, range.body).toBe(201);
    const rangeDays: Absence[] = range.json().absences;
    expect(rangeDays).toHaveLength(2);
    // Each single day is a booking of its own; the range's days share one id, that of its first day.
    expect(new Set(singles.map((absence) => absence.request_id)).size).toBe(3);
    for (const absence of singles) expect(absence.request_id).toBe(absence.id);
    expect(rangeDays.map((absence) => absence.request_id)).toEqual([rangeDays[0]!.id, rangeDays[0]!.id]);
    expect(await absences(ann)).toEqual(expect.arrayContaining([...singles, ...rangeDays].map((absence) => expect.objectContaining(absence))));

    // Another account's booking is not found, and nothing of it goes.
    const bob = await person();
    expect((await bob.call('DELETE', `/api/time-entries/absences/requests/${rangeDays[0]!.request_id}`)).statusCode).toBe(404);

    // Deleting one single day's booking removes that day only.
    const one = await ann.call('DELETE', `/api/time-entries/absences/requests/${singles[1]!.request_id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().absences.map((absence: Absence) => absence.date)).toEqual([singles[1]!.date]);
    // Deleting the range removes its two days, and the separately booked ones stay.
    const both = await ann.call('DELETE', `/api/time-entries/absences/requests/${rangeDays[0]!.request_id}`);
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json().absences.map((absence: Absence) => absence.date)).toEqual(rangeDays.map((absence) => absence.date));
    expect((await absences(ann)).map((absence) => absence.date)).toEqual([singles[0]!.date, singles[2]!.date]);
    expect((await ann.call('DELETE', `/api/time-entries/absences/requests/${rangeDays[0]!.request_id}`)).statusCode).toBe(404);
  });
});

describe('the timer', () => {
  it('a new account has the forgotten-timer limit on: 12 hours, and no offer to turn it on', async () => {
    const ann = await person();
    expect((await ann.call('GET', '/api/settings')).json()).toMatchObject({ timer_limit_minutes: 720, suggest_timer_limit: false });
    // Its first change of settings keeps it.
    expect((await ann.call('PATCH', '/api/settings', { timezone: 'Europe/Berlin' })).json()).toMatchObject({ timer_limit_minutes: 720 });
    expect((await ann.call('PATCH', '/api/settings', { timer_limit_minutes: null })).json()).toMatchObject({ timer_limit_minutes: null });
  });

  it('an entry planned for tomorrow does not block Start today; the stop ends before it', async () => {
    const ann = await person();
    const tomorrow = DateTime.utc().plus({ days: 1 }).startOf('day');
    const planned = await ann.call('POST', '/api/time-entries', {
      start_at: tomorrow.plus({ hours: 9 }).toISO(),
      end_at: tomorrow.plus({ hours: 10 }).toISO(),
      note: 'dentist',
    });
    expect(planned.statusCode, planned.body).toBe(201);
    const started = await ann.call('POST', '/api/time-entries/start');
    expect(started.statusCode, started.body).toBe(201);
    const stopped = await ann.call('POST', '/api/time-entries/stop');
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(Date.parse(stopped.json().entry.end_at)).toBeLessThanOrEqual(Date.parse(planned.json().entry.start_at));
    // An entry that covers now still blocks: the overlap rule holds for the time that has passed.
    expect((await ann.call('DELETE', `/api/time-entries/${stopped.json().entry.id}`)).statusCode).toBe(204);
    const now = DateTime.utc();
    const across = await ann.call('POST', '/api/time-entries', { start_at: now.minus({ minutes: 30 }).toISO(), end_at: now.plus({ minutes: 30 }).toISO() });
    expect(across.statusCode).toBe(201);
    const blocked = await ann.call('POST', '/api/time-entries/start');
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().code).toBe('OVERLAP');
  });
});
