// Absences booked together (docs/time-model.md, Absences): the days one POST wrote (a day, a half day
// or a range) share a `request_id`, the id of their first absence, so that they are shown and removed
// as what was booked. A later leave request groups its days the same way.
import type { Kysely, Transaction } from 'kysely';
import type { AbsenceRow, Database, LocalDate } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import { publicAbsence, type Absence } from './answer.js';

/**
 * Gives each group of just written absences (their ids) one request id, the smallest id of the group,
 * inside the caller's transaction. Absences written without a group yet (request_id 0) and not in
 * `groups` become bookings of their own.
 */
export async function assignRequests(trx: Transaction<Database>, userId: number, groups: number[][]): Promise<void> {
  for (const ids of groups) {
    if (ids.length < 2) continue;
    for (let first = 0; first < ids.length; first += 500) {
      await trx
        .updateTable('absences')
        .set({ request_id: Math.min(...ids) })
        .where('user_id', '=', userId)
        .where('id', 'in', ids.slice(first, first + 500))
        .execute();
    }
  }
  await trx
    .updateTable('absences')
    .set((eb) => ({ request_id: eb.ref('id') }))
    .where('user_id', '=', userId)
    .where('request_id', '=', 0)
    .execute();
}

/**
 * Deletes every absence of one booking of the user, and answers them (date order), so that the
 * client can say what went and offer to book it again; another user's is NOT_FOUND, like a missing one.
 */
export async function deleteRequest(
  db: Kysely<Database>,
  userId: number,
  requestId: number,
): Promise<Pick<AbsenceRow, 'id' | 'date' | 'type' | 'portion' | 'note' | 'request_id'>[]> {
  const rows = await db
    .deleteFrom('absences')
    .where('user_id', '=', userId)
    .where('request_id', '=', requestId)
    .returning(['id', 'date', 'type', 'portion', 'note', 'request_id'])
    .execute();
  if (rows.length === 0) throw new ServiceError('NOT_FOUND', 'No such absence booking');
  return rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function heldByRequest(): ServiceError {
  return new ServiceError('FORBIDDEN', 'This absence belongs to a leave request: withdraw the request, or ask for its cancellation');
}

/**
 * Deletes one of the user's absences and answers its date; another user's is NOT_FOUND, like a missing one. A day of a
 * leave request goes only through the request (withdrawn, or its cancellation approved): FORBIDDEN.
 */
export async function deleteAbsence(db: Kysely<Database>, userId: number, id: number): Promise<LocalDate> {
  const deleted = await db
    .deleteFrom('absences')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('leave_requests').select('leave_requests.id').whereRef('leave_requests.id', '=', 'absences.request_id'))))
    .returning('date')
    .executeTakeFirst();
  if (deleted) return deleted.date;
  const held = await db.selectFrom('absences').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  throw held ? heldByRequest() : new ServiceError('NOT_FOUND', 'No such absence');
}

/** Every day of one booking (deleteRequest), unless it is a leave request that still has days: FORBIDDEN. */
export async function deleteBooking(db: Kysely<Database>, userId: number, requestId: number): Promise<Absence[]> {
  const request = db.selectFrom('leave_requests').select('id').where('id', '=', requestId).where('user_id', '=', userId);
  if (await request.where('state', 'in', ['requested', 'approved', 'cancel_requested']).executeTakeFirst()) throw heldByRequest();
  return (await deleteRequest(db, userId, requestId)).map((row) => publicAbsence(row));
}
