// Bookings on the balance (docs/time-model.md): overtime paid out (a payout, always negative) or a
// correction agreed with the employer (either sign), counted on their date like a day's balance.
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { BookingKind, Database, LocalDate } from '../db/types.js';
import type { Clock } from '../common/clock.js';
import { ServiceError, validationError } from '../common/errors.js';
import { parseDate } from './calendar/dates.js';
import { normalizeNote } from './entries/rules.js';
import { MAX_OFFSET_MINUTES } from './settings/settings.js';
import type { MonthLock } from './month-lock.js';

export const BOOKING_KINDS: readonly BookingKind[] = ['payout', 'correction'];
/** The most bookings one list answers; a range with more is refused, as for entries and absences. */
export const MAX_LISTED_BOOKINGS = 2000;
/** The most bookings a user keeps (a payout a week for two hundred years); the export writes them all. */
export const MAX_BOOKINGS_PER_USER = 10_000;

export interface Booking {
  id: number;
  date: LocalDate;
  minutes: number;
  kind: BookingKind;
  note: string;
}

export interface NewBooking {
  date: string;
  minutes: number;
  kind: string;
  note?: string;
}

const COLUMNS = ['id', 'date', 'minutes', 'kind', 'note'] as const;

/** Checks a booking of the request: a date, whole signed minutes (not 0, a payout negative), a kind. */
export function checkBooking(input: NewBooking): Omit<Booking, 'id'> {
  const date = parseDate(String(input.date), 'date');
  if (!(BOOKING_KINDS as readonly string[]).includes(input.kind)) throw validationError(`kind must be one of ${BOOKING_KINDS.join(', ')}`, 'kind');
  const { minutes } = input;
  if (!Number.isInteger(minutes) || minutes === 0 || Math.abs(minutes) > MAX_OFFSET_MINUTES) {
    throw validationError(`minutes must be a whole number of minutes, not 0, from -${MAX_OFFSET_MINUTES} to ${MAX_OFFSET_MINUTES}`, 'minutes');
  }
  if (input.kind === 'payout' && minutes > 0) throw validationError('a payout takes minutes off the balance: minutes must be negative', 'minutes');
  return { date, minutes, kind: input.kind as BookingKind, note: normalizeNote(input.note) };
}

/** TOO_MANY_BOOKINGS unless the user has room for `adding` more, inside the caller's transaction. */
export async function assertRoomForBookings(trx: Transaction<Database>, userId: number, adding: number): Promise<void> {
  const { count } = await trx
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) + adding > MAX_BOOKINGS_PER_USER) {
    throw new ServiceError('TOO_MANY_BOOKINGS', `A user keeps at most ${MAX_BOOKINGS_PER_USER} bookings; delete old ones to add more`);
  }
}

export interface BookingDeps {
  database: TransactionalDatabase;
  clock: Clock;
  /** Refuses a booking dated in a closed month (src/time/month-lock.ts). */
  monthLock: MonthLock;
}

export function createBookingService({ database, clock, monthLock }: BookingDeps) {
  const { db } = database;

  /** The bookings dated from `from` through `through` (dates, both optional), oldest first. */
  async function listBookings(userId: number, query: { from?: string; to?: string } = {}): Promise<Booking[]> {
    let select = db
      .selectFrom('bookings')
      .select([...COLUMNS])
      .where('user_id', '=', userId);
    if (query.from !== undefined) select = select.where('date', '>=', parseDate(query.from, 'from'));
    if (query.to !== undefined) select = select.where('date', '<', parseDate(query.to, 'to'));
    const rows = await select
      .orderBy('date')
      .orderBy('id')
      .limit(MAX_LISTED_BOOKINGS + 1)
      .execute();
    if (rows.length > MAX_LISTED_BOOKINGS)
      throw validationError(`The range holds more than ${MAX_LISTED_BOOKINGS} bookings; ask again with a shorter from/to range`);
    return rows;
  }

  async function createBooking(userId: number, input: NewBooking): Promise<Booking> {
    const booking = checkBooking(input);
    return database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      await monthLock.assertOpen(trx, userId, booking.date, booking.date);
      await assertRoomForBookings(trx, userId, 1);
      return trx
        .insertInto('bookings')
        .values({ user_id: userId, ...booking, created_at: clock.now().toISOString() })
        .returning([...COLUMNS])
        .executeTakeFirstOrThrow();
    });
  }

  /** Deletes one of the user's bookings; another user's is NOT_FOUND, like a missing one. */
  async function deleteBooking(userId: number, id: number): Promise<void> {
    await database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const row = await trx.deleteFrom('bookings').where('id', '=', id).where('user_id', '=', userId).returning('date').executeTakeFirst();
      if (!row) throw new ServiceError('NOT_FOUND', 'No such booking');
      await monthLock.assertOpen(trx, userId, row.date, row.date);
    });
  }

  return { listBookings, createBooking, deleteBooking };
}

/** Booked minutes per date from `from` through `through`, for the day rows. */
export async function bookedByDate(executor: Kysely<Database>, userId: number, from: LocalDate, through: LocalDate): Promise<Map<LocalDate, number>> {
  return (await bookedByDateOf(executor, [userId], from, through)).get(userId)!;
}

/** bookedByDate of each of `userIds` (every one present, maybe empty), in one statement. */
export async function bookedByDateOf(
  executor: Kysely<Database>,
  userIds: readonly number[],
  from: LocalDate,
  through: LocalDate,
): Promise<Map<number, Map<LocalDate, number>>> {
  const found = new Map(userIds.map((userId) => [userId, new Map<LocalDate, number>()]));
  if (userIds.length === 0 || through < from) return found;
  const rows = await executor
    .selectFrom('bookings')
    .select(['user_id', 'date', 'minutes'])
    .where('user_id', 'in', userIds)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  for (const row of rows) {
    const booked = found.get(row.user_id)!;
    booked.set(row.date, (booked.get(row.date) ?? 0) + row.minutes);
  }
  return found;
}

/**
 * The sum of the bookings from `from` through `through` as a scalar subquery, for the balance's
 * aggregate to select beside its own sums: one statement instead of two.
 */
export function bookedSum(executor: Kysely<Database>, userId: number, from: LocalDate, through: LocalDate) {
  return executor
    .selectFrom('bookings')
    .select(sql<number>`coalesce(sum(minutes), 0)`.as('minutes'))
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', through);
}
