// Table types of the team layer (docs/teams.md): the role of an account (a column of `users`), teams
// and their members.
// Kept apart from src/db/types.ts, which holds the rest of the schema.
import type { Generated } from 'kysely';
import type { Instant, LocalDate } from './types-operations.js';

/** What an account may do (docs/teams.md): `member` by default. */
export type UserRole = 'admin' | 'lead' | 'member';

/** A team (docs/teams.md). */
export interface TeamsTable {
  id: Generated<number>;
  /** Trimmed, NFC. */
  name: string;
  /** The name without regard to case (src/teams/teams.ts, teamNameKey): unique. */
  name_key: string;
  created_at: Instant;
  /** Whether its people's vacation waits for a lead's approval (docs/teams.md, "Leave requests"). */
  absence_approval: Generated<AbsenceApproval>;
  /** Days after a month's end when housekeeping locks its members' months (docs/teams.md, "Closed months"); null: never. */
  auto_lock_after_days: number | null;
}

/** `required`: a member's vacation is a request until a lead approves it; `none`: booked at once. */
export type AbsenceApproval = 'required' | 'none';

/** A team's role of one of its members. */
export type TeamRole = 'lead' | 'member';

/** One account in one team; goes with either (ON DELETE CASCADE). */
export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  role: TeamRole;
}

/** An invitation into a team (docs/teams.md, "Invitations"); goes with its team (ON DELETE CASCADE). */
export interface InvitationsTable {
  id: Generated<number>;
  /** Lower-cased. */
  email: string;
  full_name: string;
  team_id: number;
  role: TeamRole;
  /** SHA-256 of the link's token (base64url); the token itself is never stored. */
  token_hash: string;
  /** Who invited: `user:<id>` or `os:<login>`. */
  invited_by: string;
  created_at: Instant;
  expires_at: Instant;
  accepted_at: Instant | null;
  withdrawn_at: Instant | null;
}

/** A one-time link that makes the first admin (docs/teams.md, "The first admin"); all go once an admin exists. */
export interface AdminSetupLinksTable {
  /** SHA-256 of the link's token (base64url); the token itself is never stored. */
  token_hash: string;
  created_at: Instant;
  expires_at: Instant;
}

/** Where a leave request stands (docs/teams.md, "Leave requests"). */
export type LeaveRequestState = 'requested' | 'approved' | 'rejected' | 'withdrawn' | 'cancel_requested' | 'cancelled';

/** A booking of vacation that waits or waited for a lead; `id` is the `request_id` of its absences. */
export interface LeaveRequestsTable {
  id: number;
  user_id: number;
  state: LeaveRequestState;
  /** `vacation` (the one type that waits for approval). */
  type: 'vacation';
  from_date: LocalDate;
  to_date: LocalDate;
  portion: 'full' | 'half';
  /** The days asked for, in half days (a half day 1, a whole day 2). */
  half_days: number;
  /** 1 when the request, made, left its year less than nothing of the allowance. */
  exceeds_allowance: Generated<number>;
  /** The account that decided last (null: not yet, at the shell, or that account is gone). */
  decided_by: number | null;
  decided_at: Instant | null;
  /** The lead's note with the last decision. */
  decision_note: string | null;
  created_at: Instant;
}

/** Where a month stands (docs/teams.md, "Closed months"); no row is `open`. */
export type MonthState = 'open' | 'submitted' | 'returned' | 'approved' | 'locked';

/** One account's month once it was submitted (docs/teams.md, "Closed months"); goes with the account (ON DELETE CASCADE). */
export interface MonthsTable {
  user_id: number;
  /** YYYY-MM. */
  month: string;
  state: MonthState;
  submitted_by: number | null;
  submitted_at: Instant | null;
  /** Who approved, returned, reopened or (null with `locked`) housekeeping. */
  decided_by: number | null;
  decided_at: Instant | null;
  /** The lead's comment of a return or approval; the reason of a reopening. */
  comment: string | null;
  /** SHA-256 (hex) of the month's canonical JSON at approval (docs/teams.md, "The seal"). */
  digest: string | null;
  /** The canonical JSON the digest was taken of (what verifying compares with). */
  figures: string | null;
}

/** A notice to an account (docs/notices.md): recorded once by its key, mailed once, read under the bell. */
export interface NoticesTable {
  id: Generated<number>;
  user_id: number;
  /** `missing-day`, `lead-digest`, and the kinds the leave requests and months record. */
  kind: string;
  /** Unique: a second notice with the same key is not recorded (`missing-day:<user>:<date>`, …). */
  key: string;
  /** JSON object: what the notice says (the day, the items, …). */
  data: string;
  created_at: Instant;
  read_at: Instant | null;
  /** The mail: sent, or given up after its last attempt (then logged); else tried again at next_try_at. */
  sent_at: Instant | null;
  attempts: Generated<number>;
  last_error: string | null;
  /** The next send (or the end of a claim by a process that is sending it now); null: at once. */
  next_try_at: Instant | null;
  given_up_at: Instant | null;
}

/** The last day an account was looked at for a kind of reminder (`missing-day`, `lead-digest`). */
export interface NoticeChecksTable {
  user_id: number;
  kind: string;
  checked_date: LocalDate;
}
