// Vacation that waits for a lead (docs/teams.md, "Leave requests"). Whether a person's vacation needs
// approval, and the request row that records it, belong to the team layer (src/teams/requests/); the
// absence service asks it through this port, given in its dependencies, so that time/ never imports
// teams/. A booking that needs approval is written as `requested` absences (they hold their days and
// count in no figure) and one request, in the booking's own transaction.
import type { Transaction } from 'kysely';
import type { AbsencePortion, AbsenceState, AbsenceType, Database, LocalDate } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { localDateOf } from '../calendar/dates.js';
import { scheduleTimeline } from '../schedules.js';
import type { SettingsService } from '../settings/settings.js';
import { vacationFigures } from './vacation.js';

/** A booking just written as requested absences. */
export interface RequestedLeave {
  /** The request_id of its absences. */
  id: number;
  userId: number;
  from: LocalDate;
  to: LocalDate;
  portion: AbsencePortion;
  halfDays: number;
  /** A year it falls in has less than nothing left, the request counted. */
  exceedsAllowance: boolean;
  createdAt: string;
}

/** The port the team layer implements (src/teams/requests/approval.ts). */
export interface LeaveApproval {
  /** Inside the booking's transaction (the user locked): whether this user's vacation waits for a lead. */
  required(trx: Transaction<Database>, userId: number): Promise<boolean>;
  /** Inside the same transaction: records the request of the absences just written. */
  open(trx: Transaction<Database>, request: RequestedLeave): Promise<void>;
}

/** Without a team layer (tests of time/ alone): every absence is booked at once. */
export const NO_APPROVAL: LeaveApproval = { required: async () => false, open: async () => {} };

/** The state new absences of `type` are written in: only vacation ever waits. */
export async function stateOfNewAbsences(approval: LeaveApproval, trx: Transaction<Database>, userId: number, type: AbsenceType): Promise<AbsenceState> {
  return type === 'vacation' && (await approval.required(trx, userId)) ? 'requested' : 'approved';
}

/**
 * Records the request of requested absences just written (`rows`, one booking), with whether a year
 * they fall in is left with less than nothing, read through the transaction that wrote them.
 */
export async function openRequest(
  deps: { approval: LeaveApproval; clock: Clock; settings: Pick<SettingsService, 'getSettingsInTransaction'> },
  trx: Transaction<Database>,
  userId: number,
  requestId: number,
  rows: ReadonlyArray<{ date: LocalDate; portion: AbsencePortion }>,
): Promise<boolean> {
  const settings = await deps.settings.getSettingsInTransaction(trx, userId);
  const timeline = await scheduleTimeline(trx, userId);
  const now = deps.clock.now();
  const today = localDateOf(now.getTime(), settings.zones);
  let exceeds = false;
  for (const year of new Set(rows.map((row) => Number(row.date.slice(0, 4))))) {
    const { remaining_days } = await vacationFigures(trx, today, userId, settings, timeline, year);
    if (remaining_days !== null && remaining_days < 0) exceeds = true;
  }
  const dates = rows.map((row) => row.date).sort();
  await deps.approval.open(trx, {
    id: requestId,
    userId,
    from: dates[0]!,
    to: dates.at(-1)!,
    portion: rows[0]!.portion,
    halfDays: rows.reduce((sum, row) => sum + (row.portion === 'half' ? 1 : 2), 0),
    exceedsAllowance: exceeds,
    createdAt: now.toISOString(),
  });
  return exceeds;
}
