// The monthly timesheet as a document to sign, through a real `timetrack serve` and HTTP
// (docs/time-model.md, Monthly timesheet): dates, numbers and words in the sheet's language, empty
// cells where nothing happened, an end at midnight as 24:00, a split shift that is no break, holiday
// names in the language, the longest labels on their own row, and the CSV's columns. The server has
// the real clock; every month here is over.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { request, type TestResponse } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';
import { expectPdfShowsSheet, pdfText, pdfWords, sheetDate } from '../support/timesheet.js';

const PASSWORD = 'correct horse battery staple';
let server: RunningServer;
let counter = 0;

beforeAll(async () => {
  server = await startServer(path.join(makeTempDir('timetrack-timesheet-'), 'timetrack.db'));
});
afterAll(async () => {
  await server?.stop();
});

interface Person {
  call: (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => Promise<TestResponse>;
  /** The body of a GET as bytes (a PDF). */
  bytes: (url: string) => Promise<Buffer>;
}

async function person(settings: Record<string, unknown>): Promise<Person> {
  counter += 1;
  const email = `sheet${process.pid}-${counter}@example.com`;
  const registered = await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: `Sheet Person ${counter}` } });
  expect(registered.statusCode).toBe(201);
  const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
  const who: Person = {
    call: (method, url, payload) => request(server, method, url, { payload, token }),
    bytes: async (url) => Buffer.from(await (await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer()),
  };
  // The zone for every day (docs/time-model.md, Time zone history): the sheets below are of past months.
  const patched = await who.call('PATCH', '/api/settings', 'timezone' in settings ? { ...settings, timezone_valid_from: '1970-01-01' } : settings);
  expect(patched.statusCode, patched.body).toBe(200);
  return who;
}

async function entry(who: Person, start: string, end: string): Promise<void> {
  const response = await who.call('POST', '/api/time-entries', { start_at: start, end_at: end });
  expect(response.statusCode, response.body).toBe(201);
}

/** Keeps a copy of a sheet under /tmp to look at (never in the repository). */
function keep(name: string, pdf: Buffer): void {
  fs.mkdirSync('/tmp/timesheet-look', { recursive: true });
  fs.writeFileSync(`/tmp/timesheet-look/${name}.pdf`, pdf);
}

/** The text line (pdftotext -layout) of a date's row. */
function rowOf(text: string, date: string): string {
  const line = text.split('\n').find((candidate) => candidate.trimStart().startsWith(date));
  expect(line, `the row of ${date}`).toBeDefined();
  return line!;
}

describe('the timesheet in the language of the document', () => {
  // Berlin, Bavaria, January 2026: Mon 5 a split shift (08:00–12:00 and 17:00–20:00: a 5-hour gap),
  // Tue 6 Epiphany, Wed 7 an evening to midnight, Thu 8 a day with a 30-minute break, Fri 9 a booking,
  // Mon 12 a half day of vacation, the weekends empty.
  let ann: Person;
  beforeAll(async () => {
    ann = await person({
      timezone: 'Europe/Berlin',
      holiday_region: 'DE-BY',
      tracking_start: '2026-01-01',
      vacation_days_per_year: 30,
      break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }],
    });
    await entry(ann, '2026-01-05T07:00:00Z', '2026-01-05T11:00:00Z');
    await entry(ann, '2026-01-05T16:00:00Z', '2026-01-05T19:00:00Z');
    await entry(ann, '2026-01-07T17:00:00Z', '2026-01-07T23:00:00Z');
    await entry(ann, '2026-01-08T07:00:00Z', '2026-01-08T11:00:00Z');
    await entry(ann, '2026-01-08T11:30:00Z', '2026-01-08T16:00:00Z');
    expect((await ann.call('POST', '/api/time-entries/bookings', { date: '2026-01-09', minutes: 90, kind: 'correction' })).statusCode).toBe(201);
    expect((await ann.call('POST', '/api/time-entries/absences', { date: '2026-01-12', type: 'vacation', portion: 'half' })).statusCode).toBe(201);
  });

  it('a gap longer than 3 hours splits the shift: no break, and the break rule deducts what is owed', async () => {
    const sheet = (await ann.call('GET', '/api/stats/month?month=2026-01')).json();
    // 7 hours worked, no break taken (the 5-hour gap is none): 30 minutes deducted.
    expect(sheet.days[4]).toMatchObject({ date: '2026-01-05', break_minutes: 0, break_deducted_minutes: 30, worked_minutes: 390 });
    expect(sheet.days[7]).toMatchObject({ date: '2026-01-08', break_minutes: 30, break_deducted_minutes: 0, worked_minutes: 510 });
  });

  it('German: 05.01.2026 and Mo, decimal commas, empty cells, 24:00, no break on the split shift, German holiday names', async () => {
    const sheet = (await ann.call('GET', '/api/stats/month?month=2026-01&lang=de')).json();
    expect(sheet.days[5].public_holiday).toBe('Heilige Drei Könige');
    const pdf = await ann.bytes('/api/stats/month.pdf?month=2026-01&lang=de');
    keep('de', pdf);
    expectPdfShowsSheet(pdf, sheet, 'de');
    const text = pdfText(pdf);
    expect(text).toContain('Stundenzettel Januar 2026');
    expect(rowOf(text, '05.01.2026')).toMatch(/^\s*05\.01\.2026\s+Mo\s+08:00\s+20:00\s+0:30\s+6:30\s+8:00\s+-1:30\s*$/);
    expect(rowOf(text, '06.01.2026')).toMatch(/^\s*06\.01\.2026\s+Di\s+Heilige Drei Könige\s*$/);
    expect(rowOf(text, '07.01.2026')).toMatch(/^\s*07\.01\.2026\s+Mi\s+18:00\s+24:00\s+6:00\s+8:00\s+-2:00\s*$/);
    expect(rowOf(text, '08.01.2026')).toMatch(/^\s*08\.01\.2026\s+Do\s+08:00\s+17:00\s+0:30\s+8:30\s+8:00\s+\+0:30\s*$/);
    expect(rowOf(text, '09.01.2026')).toMatch(/^\s*09\.01\.2026\s+Fr\s+8:00\s+\+1:30\s+-6:30\s*$/);
    // A weekend day where nothing happened: the date and the weekday, and nothing else (no 0:00).
    expect(rowOf(text, '10.01.2026')).toMatch(/^\s*10\.01\.2026\s+Sa\s*$/);
    expect(rowOf(text, '12.01.2026')).toContain('Urlaub (halber Tag)');
    expect(text).toContain('genommen 0,5');
    expect(text).toMatch(/Anspruch 30, übertragen 0, genommen 0,5, geplant 0, Rest 29,5/);
    expect(text).not.toMatch(/\d\.\d+ Tage|\b\d+\.5\b/);
  });

  it('English: 05 Jan 2026 and Mon, the same cells, English holiday names', async () => {
    const sheet = (await ann.call('GET', '/api/stats/month?month=2026-01')).json();
    expect(sheet.days[5].public_holiday).toBe('Epiphany');
    const pdf = await ann.bytes('/api/stats/month.pdf?month=2026-01&lang=en');
    keep('en', pdf);
    expectPdfShowsSheet(pdf, sheet, 'en');
    const text = pdfText(pdf);
    expect(text).toContain('Timesheet January 2026');
    expect(rowOf(text, '05 Jan 2026')).toMatch(/^\s*05 Jan 2026\s+Mon\s+08:00\s+20:00\s+0:30\s+6:30\s+8:00\s+-1:30\s*$/);
    expect(rowOf(text, '07 Jan 2026')).toMatch(/\s18:00\s+24:00\s/);
    expect(rowOf(text, '06 Jan 2026')).toMatch(/Tue\s+Epiphany\s*$/);
    expect(rowOf(text, '11 Jan 2026')).toMatch(/^\s*11 Jan 2026\s+Sun\s*$/);
    expect(text).toMatch(/allowance 30, carried over 0, taken 0\.5, planned 0, remaining 29\.5/);
  });

  it('the CSV: local times with their UTC offset, 24:00 at midnight, a duration, empty cells', async () => {
    const response = await ann.call('GET', '/api/stats/month.csv?month=2026-01&lang=de');
    expect(response.statusCode).toBe(200);
    expect(response.body.split('\n')[0]).toBe(
      'date,weekday,first_start,last_end,break_minutes,break_deducted_minutes,worked_minutes,worked_duration,target_minutes,booked_minutes,absence,absence_portion,public_holiday,balance_minutes',
    );
    const rows = parse(response.body, { columns: true }) as Array<Record<string, string>>;
    const byDate = new Map(rows.map((row) => [row.date, row]));
    expect(byDate.get('2026-01-05')).toEqual({
      date: '2026-01-05',
      weekday: 'mon',
      first_start: '2026-01-05T08:00+01:00',
      last_end: '2026-01-05T20:00+01:00',
      break_minutes: '',
      break_deducted_minutes: '30',
      worked_minutes: '390',
      worked_duration: '6:30',
      target_minutes: '480',
      booked_minutes: '',
      absence: '',
      absence_portion: '',
      public_holiday: '',
      balance_minutes: '-90',
    });
    expect(byDate.get('2026-01-07')).toMatchObject({ first_start: '2026-01-07T18:00+01:00', last_end: '2026-01-07T24:00+01:00', worked_duration: '6:00' });
    expect(byDate.get('2026-01-06')).toMatchObject({ public_holiday: 'Heilige Drei Könige', worked_minutes: '', target_minutes: '', balance_minutes: '' });
    expect(byDate.get('2026-01-09')).toMatchObject({ first_start: '', worked_minutes: '', worked_duration: '', booked_minutes: '90', balance_minutes: '-390' });
    expect(Object.values(byDate.get('2026-01-10')!).filter((value) => value !== '')).toEqual(['2026-01-10', 'sat']);
    expect(byDate.get('total')).toMatchObject({ worked_minutes: '1260', worked_duration: '21:00' });
  });
});

describe('long labels stay on their row', () => {
  /** The right margin of the A4 page (595.28 points wide, margins of 36). */
  const RIGHT_MARGIN = 595.28 - 36;

  /** Every word of the label is drawn inside the band of its date's row, and none on the next day's, nor past the margin. */
  function expectLabelOnItsRow(pdf: Buffer, date: string, nextDate: string, label: string[], whole: string): void {
    const words = pdfWords(pdf);
    const first = date.split(' ')[0]!;
    const row = words.find((word) => word.text === first && words.some((other) => other.top === word.top && other.text === date.split(' ').at(-1)));
    const next = words.find((word) => word.text === nextDate.split(' ')[0] && word.top > row!.top);
    expect(row, date).toBeDefined();
    expect(next, nextDate).toBeDefined();
    for (const part of label) {
      const drawn = words.filter((word) => word.text === part || word.text === `${part}…`);
      expect(drawn.length, `"${part}" is drawn`).toBeGreaterThan(0);
      // Each part is drawn once, on the row of its date: below its top, above the next day's top.
      for (const word of drawn) {
        expect(word.top, `"${part}" on the row of ${date}`).toBeGreaterThanOrEqual(row!.top - 2);
        expect(word.bottom, `"${part}" above the row of ${nextDate}`).toBeLessThanOrEqual(next!.top + 1);
      }
    }
    // No word of the whole label (those cut off included) is drawn anywhere but on its row.
    const vocabulary = new Set(whole.split(' ').filter((word) => word.length >= 4));
    for (const word of words.filter((candidate) => vocabulary.has(candidate.text.replace(/…$/, '')))) {
      expect(word.top, `"${word.text}" on the row of ${date}`).toBeGreaterThanOrEqual(row!.top - 2);
      expect(word.bottom, `"${word.text}" above the row of ${nextDate}`).toBeLessThanOrEqual(next!.top + 1);
    }
    // The whole row stays inside the page's margin: a label is cut, not run off the page.
    for (const word of words.filter((candidate) => candidate.top >= row!.top - 2 && candidate.bottom <= next!.top + 1)) {
      expect(word.right, `"${word.text}" inside the margin`).toBeLessThanOrEqual(RIGHT_MARGIN + 0.5);
    }
  }

  it("the US calendar's longest holiday name with a half day of vacation, in both languages", async () => {
    // Arkansas, 15 January 2024: "Dr. Martin Luther King Jr./Robert E. Lee's Birthdays".
    const bob = await person({ timezone: 'America/Chicago', holiday_region: 'US-AR', tracking_start: '2024-01-01' });
    expect((await bob.call('POST', '/api/time-entries/absences', { date: '2024-01-15', type: 'vacation', portion: 'half' })).statusCode).toBe(201);
    await entry(bob, '2024-01-16T14:00:00Z', '2024-01-16T22:00:00Z');
    const sheet = (await bob.call('GET', '/api/stats/month?month=2024-01')).json();
    expect(sheet.days[14].public_holiday).toBe("Dr. Martin Luther King Jr./Robert E. Lee's Birthdays");
    for (const language of ['en', 'de'] as const) {
      const pdf = await bob.bytes(`/api/stats/month.pdf?month=2024-01&lang=${language}`);
      keep(`us-${language}`, pdf);
      const text = pdfText(pdf);
      const row = rowOf(text, sheetDate('2024-01-15', language));
      expect(row).toContain(language === 'de' ? 'Urlaub (halber Tag) · Dr. Martin' : 'Vacation (half day) · Dr. Martin');
      // The next day's row holds its own figures and no word of the label.
      const next = rowOf(text, sheetDate('2024-01-16', language));
      expect(next).not.toMatch(/Lee|Birthdays|King/);
      expectLabelOnItsRow(
        pdf,
        sheetDate('2024-01-15', language),
        sheetDate('2024-01-16', language),
        ['Dr.', 'Martin', 'Luther', 'King'],
        sheet.days[14].public_holiday,
      );
    }
  });

  it("the German calendar's longest holiday name, in German", async () => {
    // Berlin, 17 June 2028: "75-jähriges Jubiläum des Volksaufstands in der DDR".
    const cem = await person({ timezone: 'Europe/Berlin', holiday_region: 'DE-BE', tracking_start: '2028-06-01' });
    expect((await cem.call('POST', '/api/time-entries/absences', { date: '2028-06-17', type: 'sick' })).statusCode).toBe(201);
    const pdf = await cem.bytes('/api/stats/month.pdf?month=2028-06&lang=de');
    keep('de-be', pdf);
    const text = pdfText(pdf);
    expect(rowOf(text, '17.06.2028')).toContain('Krank · 75-jähriges Jubiläum');
    expect(rowOf(text, '18.06.2028')).not.toMatch(/DDR|Volksaufstand/);
    expectLabelOnItsRow(pdf, '17.06.2028', '18.06.2028', ['Krank', '75-jähriges', 'Jubiläum'], '75-jähriges Jubiläum des Volksaufstands in der DDR');
  });
});
