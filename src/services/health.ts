// Whether the database can serve. A read that works is not enough: a full disk or a read-only file
// lets reads through and fails every write. Writes that fail that way are reported here, and health
// answers "unavailable" until WRITE_FAILURE_HOLD_SECONDS have passed without another such failure,
// so a load balancer or monitor sees the outage without health itself writing on every probe.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { Clock } from './clock.js';

export const WRITE_FAILURE_HOLD_SECONDS = 30;

/** SQLite result codes that mean "the database cannot take writes now", not a bug in a query. */
const UNAVAILABLE_SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|PROTOCOL|NOLFS)/;

export function isDatabaseUnavailableError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNAVAILABLE_SQLITE_CODES.test(code);
}

export function createHealthService(db: Kysely<Database>, clock: Clock) {
  let lastWriteFailureAt: number | undefined;

  /** Called with each unavailable-database error; a busy or locked database is a wait, not an outage. */
  function recordUnavailable(error: unknown): void {
    const code = String((error as { code?: unknown }).code);
    if (!/^SQLITE_(BUSY|LOCKED)/.test(code)) lastWriteFailureAt = clock.now().getTime();
  }

  async function isHealthy(): Promise<boolean> {
    if (lastWriteFailureAt !== undefined && clock.now().getTime() - lastWriteFailureAt < WRITE_FAILURE_HOLD_SECONDS * 1000) return false;
    try {
      // A read of the file (its schema version, under a read transaction): `select 1` is answered
      // by the SQLite library alone and would say "ok" for a file that cannot be read.
      await sql`pragma schema_version`.execute(db);
      return true;
    } catch {
      return false;
    }
  }

  return { isHealthy, recordUnavailable };
}

export type HealthService = ReturnType<typeof createHealthService>;
