// The list of a user's absences (GET /api/time-entries/absences): by date, each with where its leave
// request stands (docs/teams.md, "Leave requests"), read with it in one statement.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { validationError } from '../../common/errors.js';
import { addDays, localDateOf, parseInstantOrDate, startOfDay } from '../calendar/dates.js';
import type { SettingsService } from '../settings/settings.js';
import type { RangeQuery } from '../entries/rules.js';
import { publicAbsence, type Absence, type AbsenceState } from './answer.js';

/** The most absences one list answers (over five years of days); a range with more is refused, as for entries. */
export const MAX_LISTED_ABSENCES = 2000;

/** Absences whose day overlaps [from, to) (dates or instants, as for entries), by date. */
export async function listAbsences(
  { database: { db }, settings }: { database: { db: Kysely<Database> }; settings: SettingsService },
  userId: number,
  query: RangeQuery,
): Promise<Absence[]> {
  const { zones: timezone } = await settings.getSettings(userId);
  let select = db
    .selectFrom('absences')
    .leftJoin('leave_requests', 'leave_requests.id', 'absences.request_id')
    .select([
      'absences.id',
      'absences.date',
      'absences.type',
      'absences.portion',
      'absences.note',
      'absences.request_id',
      'absences.state',
      'leave_requests.state as request_state',
      'leave_requests.decided_at',
      'leave_requests.decision_note',
    ])
    .where('absences.user_id', '=', userId);
  if (query.from !== undefined) {
    select = select.where('absences.date', '>=', localDateOf(parseInstantOrDate(query.from, timezone, 'from'), timezone));
  }
  if (query.to !== undefined) {
    const toMs = parseInstantOrDate(query.to, timezone, 'to');
    const toDate = localDateOf(toMs, timezone);
    // A bound at midnight excludes the day it starts; a bound later in the day includes it.
    const firstExcluded = startOfDay(toDate, timezone) === toMs ? toDate : addDays(toDate, 1);
    select = select.where('absences.date', '<', firstExcluded);
  }
  // One row more than the cap tells that the range holds too many, without reading them all.
  const rows = await select
    .orderBy('absences.date')
    .limit(MAX_LISTED_ABSENCES + 1)
    .execute();
  if (rows.length > MAX_LISTED_ABSENCES) {
    throw validationError(`The range holds more than ${MAX_LISTED_ABSENCES} absences; ask again with a shorter from/to range`);
  }
  return rows.map(({ request_state, decided_at, decision_note, ...row }) =>
    publicAbsence(row, request_state === null ? undefined : { state: request_state as AbsenceState, decided_at, decision_note }),
  );
}
