// The check of an account document before anything is written: its shape by the schema (./schema.ts),
// then the value of every field of the right type by the rules of the API. Each problem names its
// field (`entries[3].end_at`, 1-based like the lines of a CSV); a field that is not of its type is
// left out of the checks of its value.
import { normalizeEmail, normalizeFullName, normalizeUsername } from '../auth/accounts/fields.js';
import { ServiceError } from '../common/errors.js';
import { checkAbsence, MAX_ABSENCES_PER_USER, type CheckedAbsence } from '../time/absences/absences.js';
import { checkBooking, MAX_BOOKINGS_PER_USER, type Booking } from '../time/bookings.js';
import { normalizeTimezone, parseDate, parseInstant, type ZoneEntry } from '../time/calendar/dates.js';
import { MAX_ZONES } from '../time/settings/zone-history.js';
import type { ImportProblem, ParsedRow } from '../time/entries/csv-text.js';
import { checkSpan, MAX_ENTRIES_PER_USER, normalizeNote, type EntrySpan } from '../time/entries/rules.js';
import { checkWeeklyTarget, DEFAULT_TARGET, MAX_SCHEDULES, type WeeklyTarget } from '../time/schedules.js';
import { checkSettingsPatch, type SettingsPatch } from '../time/settings/settings.js';
import {
  ACCOUNT_DOCUMENT_FORMAT,
  ACCOUNT_DOCUMENT_VERSION,
  READABLE_DOCUMENT_VERSIONS,
  REQUIRED_PARTS,
  shapeProblems,
  type AccountDocument,
} from './schema.js';

/** Every problem of a document, each naming its field; nothing was written. */
export class AccountImportError extends ServiceError {
  constructor(readonly problems: ImportProblem[]) {
    super('VALIDATION_ERROR', `${problems.length} problem(s) in the document; nothing was written`);
  }
}

interface CheckedDocument {
  account: { email: string; full_name: string; username: string | null };
  settings: Awaited<ReturnType<typeof checkSettingsPatch>>;
  entries: ParsedRow[];
  absences: CheckedAbsence[];
  /** Days of vacation that waited for approval when the document was written: left out (they count for nothing yet). */
  requestedAbsences: number;
  /** Absent in a document from before schedules: the settings' weekly targets stand for them. */
  schedules?: Array<{ valid_from: string; weekly: WeeklyTarget }>;
  bookings: Array<Omit<Booking, 'id'>>;
  /** Absent in a document from before zone histories: the settings' timezone counts from the tracking start. */
  zones?: ZoneEntry[];
}

/** JSON text of a value, with DEL and the C1 controls as \u escapes (still the same JSON; safe on a terminal). */
export function json(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Collects problems, each naming its field, and knows which fields are not of their type. */
class Problems {
  readonly list: ImportProblem[] = [];
  private readonly misshapen = new Set<string>();
  /** The misshapen fields and every field they are in (`entries[3]` for `entries[3].end_at`). */
  private readonly holding = new Set<string>();
  add(field: string, message: string): void {
    this.list.push({ line: this.list.length + 1, message: `${field}: ${message}` });
  }
  /** A field not of its type (the schema's finding): reported, and left out of the value checks. */
  misshapenField(field: string, message: string): void {
    this.misshapen.add(field);
    for (let end = field.length; end > 0; end = Math.max(field.lastIndexOf('.', end - 1), field.lastIndexOf('[', end - 1)))
      this.holding.add(field.slice(0, end));
    this.add(field, message);
  }
  /** Whether the field itself is not of its type. */
  failed(field: string): boolean {
    return this.misshapen.has(field);
  }
  /** Whether the field and everything in it are of their types. */
  clean(field: string): boolean {
    return !this.holding.has(field);
  }
  /** Runs a check that throws a VALIDATION_ERROR, as a problem of `field` (or of the field it names inside `field`). */
  check<T>(field: string, run: () => T): T | undefined {
    try {
      return run();
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const named = error.field !== undefined && !field.endsWith(error.field) ? `${field}.${error.field}` : field;
      this.add(named, error.message);
      return undefined;
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The format and version: a document of another kind or version is refused as a whole. */
function checkHeader(document: unknown): void {
  if (!isObject(document) || document.format !== ACCOUNT_DOCUMENT_FORMAT) {
    throw new ServiceError('VALIDATION_ERROR', `not an account document (its "format" must be "${ACCOUNT_DOCUMENT_FORMAT}")`);
  }
  if (!READABLE_DOCUMENT_VERSIONS.includes(document.version as number)) {
    throw new ServiceError(
      'VALIDATION_ERROR',
      `account document version ${json(document.version)} is not supported (this version reads ${READABLE_DOCUMENT_VERSIONS.join(' and ')}; it writes ${ACCOUNT_DOCUMENT_VERSION})`,
    );
  }
}

/** The account: the e-mail address is the key, matched exactly (a username is no e-mail address). */
function checkAccount(problems: Problems, user: AccountDocument['user']) {
  const email = problems.failed('user.email') ? undefined : problems.check('user.email', () => normalizeEmail(user.email));
  const fullName = problems.failed('user.full_name') ? undefined : problems.check('user.full_name', () => normalizeFullName(user.full_name));
  const username =
    user.username === undefined || problems.failed('user.username') ? null : problems.check('user.username', () => normalizeUsername(user.username ?? null));
  return { email, fullName, username };
}

const SETTINGS_FIELDS = [
  'timezone',
  'holiday_region',
  'overtime_offset_minutes',
  'tracking_start',
  'min_break_minutes',
  'timer_limit_minutes',
  'vacation_days_per_year',
  'vacation_carry_over_max_days',
  'vacation_taken_before_tracking_days',
  'break_rules',
] as const;

/** Settings: each field of its type goes into a patch, checked by the rules of PATCH /api/settings. */
async function checkSettings(problems: Problems, settingsIn: AccountDocument['settings']): Promise<CheckedDocument['settings'] | undefined> {
  const patch: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS) if (settingsIn[field] !== undefined && !problems.failed(`settings.${field}`)) patch[field] = settingsIn[field];
  const targets = settingsIn.weekly_target_minutes as Record<string, number> | undefined;
  if (targets !== undefined && !problems.failed('settings.weekly_target_minutes')) {
    const weekly: Record<string, number> = {};
    for (const [day, minutes] of Object.entries(targets)) if (!problems.failed(`settings.weekly_target_minutes.${day}`)) weekly[day] = minutes;
    patch.weekly_target_minutes = weekly;
  }
  try {
    return await checkSettingsPatch(patch as SettingsPatch);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    problems.add(`settings.${error.field ?? 'settings'}`, error.message);
    return undefined;
  }
}

/** Entries: the checks of the API (and of the CSV import) on each; overlaps come later, against what is stored. */
function checkEntries(problems: Problems, entriesIn: AccountDocument['entries'], nowMs: number): ParsedRow[] {
  if (entriesIn.length > MAX_ENTRIES_PER_USER) problems.add('entries', `${entriesIn.length} entries, and an account keeps at most ${MAX_ENTRIES_PER_USER}`);
  const entries: ParsedRow[] = [];
  entriesIn.forEach((entry, index) => {
    const at = `entries[${index + 1}]`;
    if (!problems.clean(at)) return;
    const span = problems.check(at, (): EntrySpan => {
      const checkedSpan = {
        startMs: parseInstant(entry.start_at, 'start_at'),
        endMs: entry.end_at === null || entry.end_at === undefined ? null : parseInstant(entry.end_at, 'end_at'),
        note: normalizeNote(entry.note ?? ''),
      };
      checkSpan(checkedSpan, nowMs);
      return checkedSpan;
    });
    if (span) entries.push({ line: index + 1, span });
  });
  return entries;
}

/** Absences: the checks of the API, one per day (in the document too). */
function checkAbsences(problems: Problems, absencesIn: AccountDocument['absences']): { absences: CheckedAbsence[]; requested: number } {
  if (absencesIn.length > MAX_ABSENCES_PER_USER)
    problems.add('absences', `${absencesIn.length} absences, and an account keeps at most ${MAX_ABSENCES_PER_USER}`);
  const absences: CheckedAbsence[] = [];
  const days = new Map<string, number>();
  let requested = 0;
  absencesIn.forEach((absence, index) => {
    const at = `absences[${index + 1}]`;
    if (!problems.clean(at)) return;
    // A vacation still waiting for approval counts for nothing yet, and no request here could decide it: left out.
    if (absence.state === 'requested') return void (requested += 1);
    const { date, type, note, portion } = absence;
    const checked = problems.check(at, () => checkAbsence({ date, type, note: note ?? '', ...(portion === undefined ? {} : { portion }) }));
    if (!checked) return;
    const earlier = days.get(checked.date);
    if (earlier !== undefined) return problems.add(`${at}.date`, `${checked.date} is also the date of absences[${earlier}]; an account has one absence a day`);
    days.set(checked.date, index + 1);
    absences.push(absence.request_id === undefined ? checked : { ...checked, request: absence.request_id });
  });
  return { absences, requested };
}

/** Schedules (optional: documents from before them have none): the checks of the API. */
function checkSchedules(problems: Problems, schedulesIn: NonNullable<AccountDocument['schedules']>): NonNullable<CheckedDocument['schedules']> {
  if (schedulesIn.length > MAX_SCHEDULES) problems.add('schedules', `${schedulesIn.length} schedules, and an account keeps at most ${MAX_SCHEDULES}`);
  const schedules: NonNullable<CheckedDocument['schedules']> = [];
  const firstDays = new Map<string, number>();
  schedulesIn.forEach((schedule, index) => {
    const at = `schedules[${index + 1}]`;
    if (problems.failed(at) || problems.failed(`${at}.weekly_target_minutes`) || problems.failed(`${at}.valid_from`)) return;
    const days: Record<string, number> = {};
    for (const [day, minutes] of Object.entries(schedule.weekly_target_minutes as Record<string, number>)) {
      if (!problems.failed(`${at}.weekly_target_minutes.${day}`)) days[day] = minutes;
    }
    const checkedDate = problems.check(`${at}.valid_from`, () => parseDate(schedule.valid_from, 'valid_from'));
    const weekly = problems.check(at, () => checkWeeklyTarget(days, DEFAULT_TARGET));
    if (checkedDate === undefined || weekly === undefined) return;
    const earlier = firstDays.get(checkedDate);
    if (earlier !== undefined) return problems.add(`${at}.valid_from`, `${checkedDate} is also the first day of schedules[${earlier}]`);
    firstDays.set(checkedDate, index + 1);
    schedules.push({ valid_from: checkedDate, weekly });
  });
  return schedules;
}

/** Bookings (optional: documents from before them have none): the checks of the API. */
function checkBookings(problems: Problems, bookingsIn: NonNullable<AccountDocument['bookings']>): CheckedDocument['bookings'] {
  if (bookingsIn.length > MAX_BOOKINGS_PER_USER)
    problems.add('bookings', `${bookingsIn.length} bookings, and an account keeps at most ${MAX_BOOKINGS_PER_USER}`);
  const bookings: CheckedDocument['bookings'] = [];
  bookingsIn.forEach((booking, index) => {
    const at = `bookings[${index + 1}]`;
    if (!problems.clean(at)) return;
    const checked = problems.check(at, () => checkBooking({ date: booking.date, kind: booking.kind, minutes: booking.minutes, note: booking.note ?? '' }));
    if (checked) bookings.push(checked);
  });
  return bookings;
}

/** Zones (optional: documents from before zone histories have none): a known zone, one per first day. */
function checkZones(problems: Problems, zonesIn: NonNullable<AccountDocument['zones']>): ZoneEntry[] {
  if (zonesIn.length > MAX_ZONES) problems.add('zones', `${zonesIn.length} zones, and an account keeps at most ${MAX_ZONES}`);
  const zones: ZoneEntry[] = [];
  const firstDays = new Map<string, number>();
  zonesIn.forEach((zone, index) => {
    const at = `zones[${index + 1}]`;
    if (!problems.clean(at)) return;
    const validFrom = problems.check(`${at}.valid_from`, () => parseDate(zone.valid_from, 'valid_from'));
    const timezone = problems.check(`${at}.timezone`, () => normalizeTimezone(zone.timezone));
    if (validFrom === undefined || timezone === undefined) return;
    const earlier = firstDays.get(validFrom);
    if (earlier !== undefined) return problems.add(`${at}.valid_from`, `${validFrom} is also the first day of zones[${earlier}]`);
    firstDays.set(validFrom, index + 1);
    zones.push({ valid_from: validFrom, timezone });
  });
  return zones;
}

/**
 * The document's shape by the schema, then every value by the rules of the API: an
 * AccountImportError with every problem found (each naming its field), or the document's content,
 * normalised. Without a user, settings, entries or absences of their type, only those are reported.
 */
export async function checkDocument(document: unknown, nowMs: number): Promise<CheckedDocument> {
  checkHeader(document);
  const shape = shapeProblems(document);
  const parts = shape.filter((problem) => (REQUIRED_PARTS as readonly string[]).includes(problem.field));
  const problems = new Problems();
  for (const { field, message } of parts.length > 0 ? parts : shape) problems.misshapenField(field, message);
  if (parts.length > 0) throw new AccountImportError(problems.list);
  const checkedDocument = document as AccountDocument;

  const { email, fullName, username } = checkAccount(problems, checkedDocument.user);
  const settings = await checkSettings(problems, checkedDocument.settings);
  const entries = checkEntries(problems, checkedDocument.entries, nowMs);
  const { absences, requested: requestedAbsences } = checkAbsences(problems, checkedDocument.absences);
  const schedulesIn = checkedDocument.schedules;
  const schedules = schedulesIn === undefined || problems.failed('schedules') ? undefined : checkSchedules(problems, schedulesIn);
  const bookingsIn = checkedDocument.bookings;
  const bookings = bookingsIn === undefined || problems.failed('bookings') ? [] : checkBookings(problems, bookingsIn);
  const zonesIn = checkedDocument.zones;
  const zones = zonesIn === undefined || problems.failed('zones') ? undefined : checkZones(problems, zonesIn);

  if (problems.list.length > 0 || email === undefined || fullName === undefined || username === undefined || settings === undefined) {
    throw new AccountImportError(problems.list);
  }
  return {
    account: { email, full_name: fullName, username },
    settings,
    entries,
    absences,
    requestedAbsences,
    ...(schedules === undefined ? {} : { schedules }),
    bookings,
    ...(zones === undefined ? {} : { zones }),
  };
}
