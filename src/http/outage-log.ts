// How `serve` logs a database outage (a full disk, a read-only file, I/O errors, PostgreSQL down): one
// line when it starts, one a minute per kind while it lasts, one when it ends; each in the driver's
// own words ("database or disk is full") and without a stack, which says nothing about a known outage.
// Every request it fails is still answered 503 with Retry-After (error-handler.ts) and counted.
import type { Logger } from 'pino';

/** A line per kind of failure at most this often while the outage lasts. */
const REPEAT_MS = 60_000;
/** How often health is asked whether the outage is over, once no request has failed for as long. */
const CHECK_MS = 5_000;

export interface OutageLog {
  /** An operation failed because the database is unavailable (isDatabaseUnavailable). */
  failed(error: unknown): void;
  stop(): void;
}

interface Outage {
  since: number;
  lastFailureAt: number;
  failures: number;
  /** When each kind was last logged. */
  linesAt: Map<string, number>;
  timer: NodeJS.Timeout;
}

function kindOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : error instanceof Error ? error.name : 'unknown';
}

export function createOutageLog(
  logger: Pick<Logger, 'error' | 'info'>,
  isHealthy: () => Promise<boolean>,
  timing = { repeatMs: REPEAT_MS, checkMs: CHECK_MS },
): OutageLog {
  let outage: Outage | undefined;
  let checking = false;

  async function checkBack(): Promise<void> {
    if (outage === undefined || checking || Date.now() - outage.lastFailureAt < timing.checkMs) return;
    checking = true;
    try {
      if (!(await isHealthy().catch(() => false)) || outage === undefined) return;
      clearInterval(outage.timer);
      logger.info({ for_seconds: Math.round((Date.now() - outage.since) / 1000), failed_operations: outage.failures }, 'database available again');
      outage = undefined;
    } finally {
      checking = false;
    }
  }

  return {
    failed(error) {
      const now = Date.now();
      outage ??= { since: now, lastFailureAt: now, failures: 0, linesAt: new Map(), timer: setInterval(() => void checkBack(), timing.checkMs).unref() };
      outage.failures += 1;
      outage.lastFailureAt = now;
      const kind = kindOf(error);
      const lastLine = outage.linesAt.get(kind);
      if (lastLine !== undefined && now - lastLine < timing.repeatMs) return;
      outage.linesAt.set(kind, now);
      const cause = error instanceof Error ? error.message : String(error);
      const about = { kind, cause, failed_operations: outage.failures, for_seconds: Math.round((now - outage.since) / 1000) };
      logger.error(about, lastLine === undefined ? `database unavailable: ${cause}` : `database still unavailable: ${cause}`);
    },
    stop() {
      if (outage !== undefined) clearInterval(outage.timer);
    },
  };
}
