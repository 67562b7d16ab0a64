// Requests started at page load, alongside /api/auth/me, so that the signed-in page finds its data
// already on the way instead of waiting for a chain of answers. A prefetched answer belongs to the
// session it was asked for: after an account switch it is not used.
import type { Routes } from '../http/routes-table.js';
import { fetchAnswer, sessionVersion } from './api.js';
import { routeUrl, type Answer } from './routes.js';

/** The GET routes that can be prefetched, with their query. */
type Prefetchable = { [K in keyof Routes]: K extends `GET ${string}` ? K : never }[keyof Routes];
type QueryOf<K extends Prefetchable> = Routes[K] extends { query: infer Query } ? Query : undefined;

const started = new Map<string, { version: number; answer: Promise<unknown> }>();

export function prefetch<K extends Prefetchable>(route: K, query?: QueryOf<K>): void {
  const { path } = routeUrl(route, { query: query as Record<string, string> | undefined });
  const answer = fetchAnswer('GET', path);
  answer.catch(() => undefined); // the view that takes it reports the failure
  started.set(path, { version: sessionVersion.value, answer });
}

/**
 * The query of the entries Today reads for a timer the server stopped (the last eight days or so): from
 * a UTC date, so that the request is the same at page load, before the account's zone is known, and in Today.
 */
export function recentEntriesQuery(nowMs = Date.now()): { from: string } {
  return { from: new Date(nowMs - 8 * 86_400_000).toISOString().slice(0, 10) };
}

/** The answer prefetched for the route and query in this session (once), else a fresh request. */
export function getOnce<K extends Prefetchable>(route: K, query?: QueryOf<K>): Promise<Answer<K>> {
  const { path } = routeUrl(route, { query: query as Record<string, string> | undefined });
  const found = started.get(path);
  started.delete(path);
  return (found && found.version === sessionVersion.value ? found.answer : fetchAnswer('GET', path)) as Promise<Answer<K>>;
}
