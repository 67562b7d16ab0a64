// The shape of an account document (./account-document.ts) as a TypeBox schema: which fields it has
// and the JSON type of each. The schema answers whether every field is of its type, with the field's
// path; the values themselves (dates in range, a known zone, overlaps, quotas) are checked by the rules
// of the API in ./check.ts. Unknown fields are allowed and ignored; schedules, bookings and zones are
// optional (documents written before them have none). Version 2 added `zones` (the time zone history);
// a version 1 document is read as before: its settings' timezone counts from the tracking start.
import { Type, type Static, type TSchema } from 'typebox';
import { Settings } from 'typebox/system';
import { Value } from 'typebox/value';

export const ACCOUNT_DOCUMENT_FORMAT = 'timetrack-account';
export const ACCOUNT_DOCUMENT_VERSION = 2;
/** The versions this build reads: 1 (before zone histories) and 2. */
export const READABLE_DOCUMENT_VERSIONS: readonly number[] = [1, 2];
/**
 * The largest document `user import` reads. Every account fits: 50,000 entries with 1,000-character
 * notes are about 55 MB in a Latin script and 155 MB at three bytes a character.
 */
export const MAX_ACCOUNT_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** A whole number that JavaScript holds exactly. */
const WholeNumber = Type.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const Text = Type.String();
const TextOrNull = Type.Union([Type.String(), Type.Null()]);
const NumberOrNull = Type.Union([Type.Number(), Type.Null()]);
/** Minutes by weekday; which keys are weekdays is a rule of the value (checkWeeklyTarget). */
const WeeklyTargets = Type.Object({}, { additionalProperties: WholeNumber });

const DocumentUser = Type.Object({ email: Text, full_name: Text, username: Type.Optional(TextOrNull) });

const DocumentSettings = Type.Object({
  timezone: Type.Optional(Text),
  holiday_region: Type.Optional(TextOrNull),
  overtime_offset_minutes: Type.Optional(WholeNumber),
  tracking_start: Type.Optional(TextOrNull),
  min_break_minutes: Type.Optional(WholeNumber),
  timer_limit_minutes: Type.Optional(NumberOrNull),
  vacation_days_per_year: Type.Optional(NumberOrNull),
  vacation_carry_over_max_days: Type.Optional(NumberOrNull),
  // Documents from before this setting have none: nothing was taken before the tracking start.
  vacation_taken_before_tracking_days: Type.Optional(NumberOrNull),
  // Each rule's fields are checked by the rules of PATCH /api/settings.
  break_rules: Type.Optional(Type.Array(Type.Unknown())),
  weekly_target_minutes: Type.Optional(WeeklyTargets),
});

const DocumentEntry = Type.Object({ start_at: Text, end_at: Type.Optional(TextOrNull), note: Type.Optional(Text) });
// request_id: the absences with the same one were booked together (docs/time-model.md); a document
// without it (written before it existed) imports each absence as a booking of its own.
const DocumentAbsence = Type.Object({
  date: Text,
  type: Text,
  note: Type.Optional(Text),
  portion: Type.Optional(Text),
  request_id: Type.Optional(WholeNumber),
  // requested: vacation still waiting for a lead's approval (docs/teams.md, "Leave requests"): written, not imported.
  state: Type.Optional(Type.Union([Type.Literal('approved'), Type.Literal('requested')])),
});
const DocumentSchedule = Type.Object({ valid_from: Text, weekly_target_minutes: WeeklyTargets });
const DocumentZone = Type.Object({ valid_from: Text, timezone: Text });
const DocumentBooking = Type.Object({ date: Text, kind: Text, minutes: WholeNumber, note: Type.Optional(Text) });

/** The document's top-level parts without which nothing else is read. */
export const REQUIRED_PARTS = ['user', 'settings', 'entries', 'absences'] as const;

export const AccountDocument = Type.Object({
  user: DocumentUser,
  settings: DocumentSettings,
  entries: Type.Array(DocumentEntry),
  absences: Type.Array(DocumentAbsence),
  schedules: Type.Optional(Type.Array(DocumentSchedule)),
  bookings: Type.Optional(Type.Array(DocumentBooking)),
  zones: Type.Optional(Type.Array(DocumentZone)),
});

export type AccountDocument = Static<typeof AccountDocument>;

/** A field whose value is not of the field's type: its path (`entries[3].end_at`, 1-based) and what it must be. */
export interface ShapeProblem {
  field: string;
  message: string;
}

const typeName = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

function expected(schema: TSchema): string {
  const { anyOf, type } = schema as { anyOf?: TSchema[]; type?: string };
  if (anyOf) return anyOf.map(expected).join(' or ');
  const names: Record<string, string> = {
    string: 'a string',
    integer: 'a whole number',
    number: 'a number',
    object: 'an object',
    array: 'an array',
    null: 'null',
  };
  return names[type ?? ''] ?? 'valid';
}

/** The field a JSON pointer of the document names, as the messages name it, with its schema and value. */
function fieldAt(pointer: string, document: unknown): { field: string; schema: TSchema | undefined; value: unknown } {
  let schema: TSchema | undefined = AccountDocument;
  let value = document;
  let field = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const node = schema as { type?: string; items?: TSchema; properties?: Record<string, TSchema>; additionalProperties?: TSchema | boolean } | undefined;
    if (node?.type === 'array') {
      field += `[${Number(segment) + 1}]`;
      schema = node.items;
    } else {
      field += field === '' ? segment : `.${segment}`;
      const additional = typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined;
      schema = Object.hasOwn(node?.properties ?? {}, segment) ? node?.properties?.[segment] : additional;
    }
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
  }
  return { field, schema, value };
}

/**
 * Every error of the document, not the first few TypeBox gathers by default (its setting maxErrors,
 * process-wide): raised for this one synchronous call only, so that nothing else sees it changed. The
 * number is bounded by the document's size (MAX_ACCOUNT_DOCUMENT_BYTES), like the problems it reports.
 */
function everyError(document: unknown) {
  const { maxErrors } = Settings.Get();
  Settings.Set({ maxErrors: Number.MAX_SAFE_INTEGER });
  try {
    return Value.Errors(AccountDocument, document);
  } finally {
    Settings.Set({ maxErrors });
  }
}

/**
 * Every field of the document that is not of its type (a missing one included), in the order of the
 * schema, each once: an empty list when the document has the schema's shape.
 */
export function shapeProblems(document: unknown): ShapeProblem[] {
  if (Value.Check(AccountDocument, document)) return [];
  const problems = new Map<string, string>();
  const note = (pointer: string, onlyMissing = false) => {
    const { field, schema, value } = fieldAt(pointer, document);
    if (problems.has(field) || schema === undefined || (onlyMissing && value !== undefined)) return;
    const number = (schema as { type?: string }).type === 'integer' && typeof value === 'number' ? ` (${value})` : '';
    problems.set(field, `must be ${expected(schema)}, not ${value === undefined ? 'missing' : typeName(value)}${number}`);
  };
  for (const error of everyError(document)) {
    if (error.keyword === 'required') {
      for (const name of error.params.requiredProperties) note(`${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, true);
    } else if (error.keyword !== 'additionalProperties') {
      note(error.instancePath);
    }
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}
