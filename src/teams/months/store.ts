// The rows of closed months (docs/teams.md, "Closed months"): one per account and month once it was
// submitted; no row is an open month. What the month service reads and writes, nothing more.
import type { Kysely, Transaction } from 'kysely';
import type { Database, MonthState } from '../../db/types.js';
import { ServiceError, validationError } from '../../common/errors.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from '../../auth/accounts/users.js';
import { peopleLedBy } from '../members.js';

/** A month as the API answers it. */
export interface MonthStatus {
  month: string;
  state: MonthState;
  submitted_at: string | null;
  submitted_by: number | null;
  decided_at: string | null;
  decided_by: number | null;
  comment: string | null;
  digest: string | null;
}

export const STATUS_COLUMNS = ['month', 'state', 'submitted_at', 'submitted_by', 'decided_at', 'decided_by', 'comment', 'digest'] as const;

/** The most characters of a lead's comment or an admin's reason. */
export const MAX_COMMENT_LENGTH = 1000;

/** A month named as YYYY-MM (01 to 12), or VALIDATION_ERROR. */
export function parseMonth(value: string, field = 'month'): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) throw validationError(`${field} must be YYYY-MM`, field);
  return value;
}

/** A comment or reason, trimmed; VALIDATION_ERROR when required and empty, or too long. */
export function checkComment(value: string | undefined, field: string, required: boolean): string | null {
  const text = (value ?? '').trim();
  if (required && text === '') throw validationError(`${field} is required`, field);
  if (text.length > MAX_COMMENT_LENGTH) throw validationError(`${field} has at most ${MAX_COMMENT_LENGTH} characters`, field);
  return text === '' ? null : text;
}

export function openMonth(month: string): MonthStatus {
  return { month, state: 'open', submitted_at: null, submitted_by: null, decided_at: null, decided_by: null, comment: null, digest: null };
}

export async function monthRow(executor: Kysely<Database>, userId: number, month: string): Promise<MonthStatus> {
  const row = await executor.selectFrom('months').select(STATUS_COLUMNS).where('user_id', '=', userId).where('month', '=', month).executeTakeFirst();
  return row ?? openMonth(month);
}

/** Every month of the year, open where nothing is stored. */
export async function monthsOfYear(db: Kysely<Database>, userId: number, year: number): Promise<MonthStatus[]> {
  const rows = await db
    .selectFrom('months')
    .select(STATUS_COLUMNS)
    .where('user_id', '=', userId)
    .where('month', '>=', `${year}-01`)
    .where('month', '<=', `${year}-12`)
    .execute();
  const stored = new Map(rows.map((row) => [row.month, row]));
  return Array.from({ length: 12 }, (_, index) => {
    const month = `${year}-${String(index + 1).padStart(2, '0')}`;
    return stored.get(month) ?? openMonth(month);
  });
}

/** The most months one list of waiting months answers (the oldest first). */
export const MAX_WAITING_MONTHS = 500;

/** A submitted month with its person, as a lead's or an admin's list of what waits for a decision holds it. */
export type WaitingMonth = MonthStatus & { user: PublicUser };

/** Months submitted and not yet decided: of the people a lead leads (never the lead's own), or of everyone; oldest month first. */
export async function waitingMonths(db: Kysely<Database>, reach: { ledBy: number } | 'all'): Promise<WaitingMonth[]> {
  let query = db
    .selectFrom('months')
    .innerJoin('users', 'users.id', 'months.user_id')
    .select([...PUBLIC_USER_COLUMNS, ...STATUS_COLUMNS.map((column) => `months.${column}` as const)])
    .where('months.state', '=', 'submitted');
  if (reach !== 'all') query = query.where('months.user_id', 'in', peopleLedBy(db, reach.ledBy));
  const rows = await query.orderBy('months.month').orderBy('users.email').limit(MAX_WAITING_MONTHS).execute();
  return rows.map(({ id, email, full_name, username, created_at, ...status }) => ({ ...status, user: { id, email, full_name, username, created_at } }));
}

/** MONTH_STATE unless the month is in one of `states`. */
export function requireState(status: MonthStatus, states: readonly MonthState[], doing: string): void {
  if (!states.includes(status.state)) {
    throw new ServiceError('MONTH_STATE', `The month ${status.month} is ${status.state}: only a month that is ${states.join(' or ')} can be ${doing}`);
  }
}

/** Writes the month's new state (inside the caller's transaction, which has locked the account). */
export async function writeMonth(trx: Transaction<Database>, userId: number, status: MonthStatus, figures: string | null = null): Promise<void> {
  const values = { ...status, figures };
  await trx
    .insertInto('months')
    .values({ user_id: userId, ...values })
    .onConflict((conflict) => conflict.columns(['user_id', 'month']).doUpdateSet(values))
    .execute();
}
