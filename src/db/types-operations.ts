// The tables of the server's own bookkeeping (kept apart from src/db/types.ts, which imports and
// re-exports them): per-day totals the statistics read, export leases and the registry of running
// server processes; and the two string types every table uses.
import type { Generated } from 'kysely';

/** ISO 8601 instant in UTC with milliseconds, e.g. 2026-11-22T08:00:00.000Z (sorts as text). */
export type Instant = string;

/** Calendar day YYYY-MM-DD (in the user's time zone where it stands for a day of work). */
export type LocalDate = string;

/** Worked time of finished entries per local day of a user, kept with every entry write. */
export interface DailyTotalsTable {
  user_id: number;
  date: LocalDate;
  worked_ms: number;
  /** The gaps of at least the user's min_break_minutes between the day's entries (docs/time-model.md, Break rules). */
  break_ms: Generated<number>;
}

/** An export of the account running now (one at a time per account): who holds it, until when unless renewed. */
export interface ExportLeasesTable {
  user_id: number;
  /** Random per export: only the export that took the lease renews or ends it. */
  holder: string;
  expires_at: Instant;
}

/** One running `serve` on PostgreSQL (src/db/process-registry.ts); empty on SQLite. */
export interface ServerProcessesTable {
  /** Random per process. */
  id: string;
  version: string;
  /** The newest migration this process knows (its build's last). */
  last_migration: string;
  pid: number;
  host: string;
  /** 1 while it writes, 0 once it stopped (a newer version migrates or has migrated). */
  writing: number;
  started_at: Instant;
  heartbeat_at: Instant;
}
