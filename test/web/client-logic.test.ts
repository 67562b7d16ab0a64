// The browser client's pure logic: durations, week arithmetic, error sentences.
import { describe, expect, it } from 'vitest';
import { formatBalance, formatHours, formatMinutes, formatTimer, parseDuration } from '../../src/web/duration.js';
import { de } from '../../src/web/i18n/de.js';
import { en } from '../../src/web/i18n/en.js';
import { errorMessage as sentence, type ApiFailure } from '../../src/web/messages.js';
import { dayDoubt, looksLikeMinutes, timeDoubt } from '../../src/web/plausibility.js';
import { datedTime, instantOf, partsOf, shiftWeek, spanLabel, todayIn, weekDates, weekStartOf } from '../../src/web/week.js';

const errorMessage = (failure: ApiFailure) => sentence(failure, en);

describe('durations', () => {
  it('shows minutes as h:mm', () => {
    expect(formatMinutes(0)).toBe('0:00');
    expect(formatMinutes(5)).toBe('0:05');
    expect(formatMinutes(90)).toBe('1:30');
    expect(formatMinutes(600)).toBe('10:00');
    expect(formatMinutes(-65)).toBe('-1:05');
  });
  it('signs balances', () => {
    expect(formatBalance(30)).toBe('+0:30');
    expect(formatBalance(-30)).toBe('-0:30');
    expect(formatBalance(0)).toBe('0:00');
  });
  it('ticks the running timer by the second', () => {
    expect(formatTimer(0)).toBe('0:00:00');
    expect(formatTimer(3_723_999)).toBe('1:02:03');
    expect(formatTimer(-5)).toBe('0:00:00');
  });
  it('reads h:mm, signed offsets and whole hours, and refuses the rest', () => {
    expect(parseDuration('7:30')).toBe(450);
    expect(parseDuration(' 8 ')).toBe(480);
    expect(parseDuration('-1:15')).toBe(-75);
    expect(parseDuration('+0:45')).toBe(45);
    for (const text of ['', '7:60', '7.555', 'abc', '1:5']) expect(parseDuration(text)).toBeUndefined();
  });
  it('round-trips every displayed value', () => {
    for (const minutes of [0, 1, 59, 60, 479, 480, 12_345, -1, -480]) expect(parseDuration(formatMinutes(minutes))).toBe(minutes);
  });
});

describe('weeks', () => {
  it('start on Monday', () => {
    expect(weekStartOf('2026-03-04')).toBe('2026-03-02'); // a Wednesday
    expect(weekStartOf('2026-03-02')).toBe('2026-03-02');
    expect(weekStartOf('2026-03-08')).toBe('2026-03-02'); // the Sunday
    expect(weekStartOf('2027-01-01')).toBe('2026-12-28'); // across a year
  });
  it('move by whole weeks to a Monday', () => {
    expect(shiftWeek('2026-03-04', 1)).toBe('2026-03-09');
    expect(shiftWeek('2026-03-04', -1)).toBe('2026-02-23');
    expect(shiftWeek('2026-03-30', 1)).toBe('2026-04-06'); // over the switch to summer time in Europe
  });
  it('list Monday to Sunday', () => {
    expect(weekDates('2026-02-26')).toEqual(['2026-02-23', '2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01']);
  });
  it("take today's date in the user's zone, not the browser's", () => {
    const instant = new Date('2026-03-01T23:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-03-01');
    expect(todayIn('Europe/Berlin', instant)).toBe('2026-03-02');
    expect(todayIn('America/Los_Angeles', instant)).toBe('2026-03-01');
  });
  it("read and show date and time fields in the user's zone", () => {
    expect(instantOf('2026-03-02', '08:00', 'Europe/Berlin')).toBe('2026-03-02T07:00:00.000Z');
    expect(instantOf('2026-07-02', '08:00', 'Europe/Berlin')).toBe('2026-07-02T06:00:00.000Z');
    expect(partsOf('2026-03-02T07:00:00Z', 'Europe/Berlin')).toEqual({ date: '2026-03-02', time: '08:00' });
    expect(instantOf('', '08:00', 'UTC')).toBeUndefined();
    expect(instantOf('2026-03-02', 'not a time', 'UTC')).toBeUndefined();
  });
});

describe('instants carry their day unless it is today', () => {
  const words = en.days;
  const now = new Date('2026-03-02T16:45:00Z'); // Monday
  it('today, tomorrow, yesterday, a weekday within the week, a date further away', () => {
    expect(datedTime('2026-03-02T13:50:00Z', 'UTC', 'en-GB', words, now)).toBe('13:50');
    expect(datedTime('2026-03-03T01:10:00Z', 'UTC', 'en-US', words, now)).toBe('tomorrow 1:10\u202fAM');
    expect(datedTime('2026-03-01T23:30:00Z', 'UTC', 'en-US', words, now)).toBe('yesterday 11:30\u202fPM');
    expect(datedTime('2026-03-05T18:05:00Z', 'UTC', 'en-US', words, now)).toBe('Thu 6:05\u202fPM');
    expect(datedTime('2026-03-12T18:05:00Z', 'UTC', 'en-GB', words, now)).toBe('Thu 12 Mar 18:05');
    expect(datedTime('2026-03-03T01:10:00Z', 'UTC', 'de-DE', de.days, now)).toBe('morgen 01:10');
  });
  it('in the account zone: 23:30 UTC is already tomorrow in Berlin', () => {
    expect(datedTime('2026-03-02T23:30:00Z', 'Europe/Berlin', 'en-GB', words, now)).toBe('tomorrow 00:30');
  });
  it('entries across midnight and longer than a day show both days', () => {
    expect(spanLabel('2026-03-02T08:30:00Z', '2026-03-02T12:00:00Z', 'UTC', 'en-GB', 'running')).toBe('08:30–12:00');
    expect(spanLabel('2026-03-02T22:00:00Z', '2026-03-03T02:30:00Z', 'UTC', 'en-GB', 'running')).toBe('Mon 22:00 – Tue 02:30');
    expect(spanLabel('2026-03-02T06:00:00Z', '2026-03-03T12:00:00Z', 'UTC', 'en-GB', 'running')).toBe('Mon 2 Mar 06:00 – Tue 3 Mar 12:00');
    expect(spanLabel('2026-03-02T06:00:00Z', null, 'UTC', 'en-GB', 'running')).toBe('06:00–running');
  });
});

describe('typed durations', () => {
  it('read decimal hours and minutes as well as h:mm', () => {
    expect(parseDuration('1.5h')).toBe(90);
    expect(parseDuration('1,5 h')).toBe(90);
    expect(parseDuration('7.5')).toBe(450);
    expect(parseDuration('0.25')).toBe(15);
    expect(parseDuration('90m')).toBe(90);
    expect(parseDuration('1h30')).toBe(90);
    expect(parseDuration('1:30')).toBe(90);
    expect(parseDuration('h')).toBeUndefined();
    expect(parseDuration('.')).toBeUndefined();
  });
  it('show targets as hours', () => {
    expect(formatHours(480)).toBe('8');
    expect(formatHours(450)).toBe('7.5');
    expect(formatHours(450, ',')).toBe('7,5');
    expect(formatHours(455)).toBe('7:35');
  });
});

describe('the catalogs', () => {
  it('German has a sentence for every code English has, and they differ', () => {
    expect(Object.keys(de.errors).sort()).toEqual(Object.keys(en.errors).sort());
    expect(sentence({ status: 409, code: 'OVERLAP' }, de)).toMatch(/überschneidet/);
  });
});

describe('error sentences', () => {
  it('give the lock time in minutes from Retry-After', () => {
    expect(errorMessage({ status: 423, code: 'ACCOUNT_LOCKED', retryAfterSeconds: 900 })).toBe(
      'Too many failed sign-ins: this account is locked. Try again in 15 minutes.',
    );
    expect(errorMessage({ status: 423, code: 'ACCOUNT_LOCKED', retryAfterSeconds: 61 })).toMatch(/in 2 minutes/);
    expect(errorMessage({ status: 423, code: 'ACCOUNT_LOCKED', retryAfterSeconds: 60 })).toMatch(/in 1 minute\./);
    expect(errorMessage({ status: 423, code: 'ACCOUNT_LOCKED' })).toMatch(/in a few minutes/);
  });
  it('say when to retry a rate-limited request', () => {
    expect(errorMessage({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 42 })).toBe('Too many requests in a short time. Try again in 42 seconds.');
  });
  it.each([
    ['WEAK_PASSWORD', 400, /too common/],
    ['EMAIL_TAKEN', 409, /already exists/],
    ['USERNAME_TAKEN', 409, /username is taken/],
    ['INVALID_RESET_TOKEN', 400, /invalid, expired or already used/],
    ['INVALID_CREDENTIALS', 401, /not right/],
    ['ACCOUNT_DISABLED', 403, /disabled/],
    ['INVALID_PASSWORD', 403, /current password/],
    ['OVERLAP', 409, /overlaps another entry/],
    ['ALREADY_RUNNING', 409, /already running/],
    ['ABSENCE_EXISTS', 409, /already an absence/],
    ['BUSY', 503, /busy/],
    ['DATABASE_UNAVAILABLE', 503, /busy/],
    ['VALIDATION_ERROR', 400, /not valid/],
    ['NETWORK', 0, /cannot be reached/],
  ])('%s is a sentence', (code, status, sentence) => {
    const message = errorMessage({ status, code });
    expect(message).toMatch(sentence);
    expect(message).toMatch(/^[A-Z].*\.$/);
    expect(message).not.toContain(code);
  });
  it('an unknown code still gets a sentence, by its status', () => {
    expect(errorMessage({ status: 500, code: 'INTERNAL_ERROR' })).toMatch(/Try again/);
    expect(errorMessage({ status: 418, code: '' })).toMatch(/did not work/);
    expect(errorMessage({ status: 429, code: '', retryAfterSeconds: 120 })).toMatch(/in 2 minutes/);
  });
});

describe('plausibility before saving an entry', () => {
  const none = new Set<never>();
  it('asks minutes or hours for a bare number that as hours is more than 12, never for 8 or 1:30', () => {
    expect(looksLikeMinutes('45')).toBe(true);
    expect(looksLikeMinutes('13')).toBe(true);
    for (const typed of ['8', '12', '1:30', '45m', '1.5h', '45 min']) expect(looksLikeMinutes(typed)).toBe(false);
    expect(timeDoubt({ start: '09:00', end: '', duration: '45', minutes: 2700 }, none)).toEqual({ kind: 'minutesOrHours', field: 'duration', typed: '45' });
  });
  it('asks about an end before the start, then about the length, each once', () => {
    const entry = { start: '09:00', end: '05:00', duration: '', minutes: 20 * 60 };
    expect(timeDoubt(entry, none)?.kind).toBe('overnight');
    expect(timeDoubt(entry, new Set(['overnight'] as const))).toEqual({ kind: 'long', field: 'end_at', minutes: 1200 });
    expect(timeDoubt(entry, new Set(['overnight', 'long'] as const))).toBeUndefined();
    expect(timeDoubt({ start: '09:00', end: '17:00', duration: '', minutes: 480 }, none)).toBeUndefined();
  });
  it('asks about a public holiday or an absence on the day', () => {
    expect(dayDoubt({ date: '2026-12-25', public_holiday: 'Christmas Day', absence: null }, none)).toEqual({
      kind: 'holiday',
      field: 'date',
      name: 'Christmas Day',
    });
    expect(dayDoubt({ date: '2026-12-21', public_holiday: null, absence: 'vacation' }, none)?.kind).toBe('absence');
    expect(dayDoubt({ date: '2026-12-22', public_holiday: null, absence: null }, none)).toBeUndefined();
  });
});
