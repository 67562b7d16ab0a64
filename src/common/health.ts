// Whether the database can serve. A read that works is not enough: a full disk or a read-only file
// lets reads through and fails every write. Writes that fail that way are reported here, and health
// answers "unavailable" until WRITE_FAILURE_HOLD_SECONDS have passed without another such failure,
// so a load balancer or monitor sees the outage without health itself writing on every probe.
import { isDatabaseBusy, isDatabaseUnreachable, type OpenedDatabase } from '../db/database.js';
import type { Clock } from './clock.js';

export const WRITE_FAILURE_HOLD_SECONDS = 30;

export function createHealthService(database: Pick<OpenedDatabase, 'probe'>, clock: Clock) {
  let lastWriteFailureAt: number | undefined;

  /**
   * Called with each unavailable-database error; a busy or locked database is a wait, not an outage,
   * and a PostgreSQL server that cannot be reached is seen by the probe itself (and not after it is back).
   */
  function recordUnavailable(error: unknown): void {
    if (!isDatabaseBusy(error) && !isDatabaseUnreachable(error)) lastWriteFailureAt = clock.now().getTime();
  }

  async function isHealthy(): Promise<boolean> {
    if (lastWriteFailureAt !== undefined && clock.now().getTime() - lastWriteFailureAt < WRITE_FAILURE_HOLD_SECONDS * 1000) return false;
    try {
      await database.probe();
      return true;
    } catch {
      return false;
    }
  }

  return { isHealthy, recordUnavailable };
}

export type HealthService = ReturnType<typeof createHealthService>;
