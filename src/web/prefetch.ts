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

/** The answer prefetched for `path` in this session (once), else a fresh request. */
export function getOnce<T>(path: string): Promise<T> {
  const found = started.get(path);
  started.delete(path);
  return found && found.version === sessionVersion.value ? (found.answer as Promise<T>) : api<T>('GET', path);
}
