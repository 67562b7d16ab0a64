// Requests started at page load, alongside /api/auth/me, so that the signed-in page finds its data
// already on the way instead of waiting for a chain of answers. A prefetched answer belongs to the
// session it was asked for: after an account switch it is not used.
import { api, sessionVersion } from './api.js';

const started = new Map<string, { version: number; answer: Promise<unknown> }>();

export function prefetch(path: string): void {
  const answer = api<unknown>('GET', path);
  answer.catch(() => undefined); // the view that takes it reports the failure
  started.set(path, { version: sessionVersion.value, answer });
}

/**
 * The entries Today reads for a timer the server stopped (the last eight days or so): from a UTC date,
 * so that the path is the same at page load, before the account's zone is known, and in Today.
 */
export function recentEntriesPath(nowMs = Date.now()): string {
  return `/api/time-entries?from=${new Date(nowMs - 8 * 86_400_000).toISOString().slice(0, 10)}`;
}

/** The answer prefetched for `path` in this session (once), else a fresh request. */
export function getOnce<T>(path: string): Promise<T> {
  const found = started.get(path);
  started.delete(path);
  return found && found.version === sessionVersion.value ? (found.answer as Promise<T>) : api<T>('GET', path);
}
