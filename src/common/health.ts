// Whether the database can serve. A read that works is not enough: a full disk or a read-only file
// lets reads through and fails every write. Writes that fail that way are reported here, and health
// answers "unavailable" until WRITE_FAILURE_HOLD_SECONDS have passed without another such failure,
// so a load balancer or monitor sees the outage without health itself writing on every probe. A
// damaged file reads fine too: `serve` runs the engine's integrity check at start and then every
// INTEGRITY_CHECK_INTERVAL (never per request), and health reports its last finding. Readiness adds
// the schema: a database that needs a migration (or another process is migrating) is not ready.
import { isDatabaseBusy, isDatabaseUnreachable, type OpenedDatabase } from '../db/database.js';
import type { Clock } from './clock.js';

/** The start of checkIntegrity's answer when the check could not run (no finding about the data). */
export const NOT_CHECKED = 'not checked: ';

export const WRITE_FAILURE_HOLD_SECONDS = 30;
/**
 * The longest health waits for the database's answer: a database that hangs (a stalled server, a
 * network that drops packets without refusing) is reported unavailable now, not with a late 200.
 */
export const PROBE_TIMEOUT_MS = 2_000;
/** Readiness asks the schema at most this often. */
const SCHEMA_CHECK_CACHE_MS = 5_000;

export interface HealthState {
  healthy: boolean;
  /** Why not, in a few words (never a secret); absent when healthy. */
  reason?: string;
}

export function createHealthService(database: Pick<OpenedDatabase, 'probe' | 'quickCheck'>, clock: Clock, assertSchemaCurrent: () => Promise<void>) {
  let lastWriteFailureAt: number | undefined;
  let integrityProblem: string | undefined;
  let schemaCheckedAt = -Infinity;
  let schemaProblem: string | undefined;

  /**
   * Called with each unavailable-database error; a busy or locked database is a wait, not an outage,
   * and a PostgreSQL server that cannot be reached is seen by the probe itself (and not after it is back).
   */
  function recordUnavailable(error: unknown): void {
    if (!isDatabaseBusy(error) && !isDatabaseUnreachable(error)) lastWriteFailureAt = clock.now().getTime();
  }

  /** Runs the integrity check (quick_check on SQLite) and keeps its finding for health; returns it. */
  /** 'ok', the problems found, or `not checked: <why>` when the check could not run. */
  async function checkIntegrity(): Promise<string> {
    let result: string;
    try {
      result = await database.quickCheck();
    } catch (error) {
      // An outage (or a database closed at shutdown) is reported by the probe, never as damage: only a
      // finding of the check itself counts here.
      return `${NOT_CHECKED}${error instanceof Error ? error.message : String(error)}`;
    }
    integrityProblem = result === 'ok' ? undefined : result;
    return result;
  }

  async function state(): Promise<HealthState> {
    if (lastWriteFailureAt !== undefined && clock.now().getTime() - lastWriteFailureAt < WRITE_FAILURE_HOLD_SECONDS * 1000) {
      return { healthy: false, reason: 'database writes are failing' };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS)));
      await Promise.race([database.probe(), late]);
    } catch {
      return { healthy: false, reason: 'database unavailable' };
    } finally {
      clearTimeout(timer);
    }
    if (integrityProblem !== undefined) return { healthy: false, reason: 'database integrity check failed' };
    return { healthy: true };
  }

  async function isHealthy(): Promise<boolean> {
    return (await state()).healthy;
  }

  /** Healthy, and the schema is this build's (no migration pending or running elsewhere). */
  async function readiness(): Promise<HealthState> {
    const health = await state();
    if (!health.healthy) return health;
    const now = clock.now().getTime();
    if (now - schemaCheckedAt >= SCHEMA_CHECK_CACHE_MS || schemaProblem !== undefined) {
      try {
        await assertSchemaCurrent();
        schemaProblem = undefined;
      } catch {
        schemaProblem = "database schema is not this version's (migrations pending or running)";
      }
      schemaCheckedAt = now;
    }
    return schemaProblem === undefined ? { healthy: true } : { healthy: false, reason: schemaProblem };
  }

  return { isHealthy, state, readiness, checkIntegrity, recordUnavailable };
}

export type HealthService = ReturnType<typeof createHealthService>;
