// The week's public holidays named in the `lang` of the request, as the month's are, through a real
// `timetrack serve` and HTTP (docs/api.md, /api/stats/week): signed in (the account's region) and
// without a token (`?region=`). The figures are the same in every language.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const PASSWORD = 'correct horse battery staple';
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(path.join(makeTempDir('timetrack-week-lang-'), 'timetrack.db'));
});
afterAll(async () => {
  await server?.stop();
});

describe('GET /api/stats/week?lang=', () => {
  it('names a signed-in account’s holidays in the language, with the same figures', async () => {
    const email = `week-lang-${process.pid}@example.com`;
    expect((await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: 'Week Lang' } })).statusCode).toBe(201);
    const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
    const patched = await request(server, 'PATCH', '/api/settings', {
      token,
      payload: { timezone: 'Europe/Berlin', timezone_valid_from: '1970-01-01', holiday_region: 'DE-BY', tracking_start: '2026-01-01' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const english = (await request(server, 'GET', '/api/stats/week?date=2026-01-06', { token })).json();
    const german = (await request(server, 'GET', '/api/stats/week?date=2026-01-06&lang=de', { token })).json();
    expect(english.days[1]).toMatchObject({ date: '2026-01-06', public_holiday: 'Epiphany' });
    expect(german.days[1]).toMatchObject({ date: '2026-01-06', public_holiday: 'Heilige Drei Könige' });
    const withoutNames = (week: { days: Array<Record<string, unknown>> }) => week.days.map((day) => ({ ...day, public_holiday: day.public_holiday !== null }));
    expect(withoutNames(german)).toEqual(withoutNames(english));
    expect(german.totals).toEqual(english.totals);
  });

  it('names a region’s holidays in the language without a token, and refuses another language', async () => {
    const german = (await request(server, 'GET', '/api/stats/week?date=2026-01-06&region=DE-BY&lang=de')).json();
    expect(german.days[1]).toMatchObject({ date: '2026-01-06', public_holiday: 'Heilige Drei Könige' });
    const english = (await request(server, 'GET', '/api/stats/week?date=2026-01-06&region=DE-BY')).json();
    expect(english.days[1].public_holiday).toBe('Epiphany');
    expect((await request(server, 'GET', '/api/stats/week?date=2026-01-06&lang=fr')).statusCode).toBe(400);
  });
});
