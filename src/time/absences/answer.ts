// An absence as the routes answer it (docs/api.md): its day, kind and booking, and where its leave
// request stands (docs/teams.md, "Leave requests").
import type { AbsencePortion, AbsenceRow, AbsenceType, LocalDate } from '../../db/types.js';

/** `booked`: needed no approval; otherwise the state of its leave request while the absence exists. */
export type AbsenceState = 'booked' | 'requested' | 'approved' | 'cancel_requested';

export interface Absence {
  id: number;
  date: LocalDate;
  type: AbsenceType;
  portion: AbsencePortion;
  note: string;
  /** The booking the day belongs to (./requests.ts): the days of one POST share it. */
  request_id: number;
  /** `booked` (no approval needed), or where its leave request stands (docs/teams.md, "Leave requests"). */
  state: AbsenceState;
  /** When the request's last decision was made, and the lead's note with it (null: none yet, or booked). */
  decided_at: string | null;
  decision_note: string | null;
}

/** An absence as answered; without its request's row, `requested` or `booked` from its own state. */
export function publicAbsence(
  row: Pick<AbsenceRow, 'id' | 'date' | 'type' | 'portion' | 'note' | 'request_id'> & { state?: AbsenceRow['state'] },
  request?: { state: AbsenceState; decided_at: string | null; decision_note: string | null },
): Absence {
  const { id, date, type, portion, note, request_id } = row;
  const decided = request ?? { state: row.state === 'requested' ? 'requested' : 'booked', decided_at: null, decision_note: null };
  return { id, date, type, portion, note, request_id, ...decided };
}
