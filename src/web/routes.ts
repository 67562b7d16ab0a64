// A call of a route of the table (src/http/routes-table.ts): what `api()` takes for it and what it
// answers, and the URL it requests. No browser globals here: the tests load it in Node.
import type { AnonymousStats, Routes } from '../http/routes-table.js';

/** What a call of a route sends: `params` for the `:name` parts of its path, `query`, `body`, each as the route takes it. */
type RequestOf<R> = Omit<R, 'response'>;
/** The parts that may be left out (all their fields optional, or null allowed) are optional. */
export type Loose<T> = { [K in keyof T as {} extends T[K] ? K : never]?: T[K] } & { [K in keyof T as {} extends T[K] ? never : K]: T[K] };
/** The argument after the route key: none needed when every part may be left out. */
export type RequestArgument<R> = {} extends Loose<RequestOf<R>> ? [request?: Loose<RequestOf<R>>] : [request: Loose<RequestOf<R>>];
/** A route's answer as the client gets it: an anonymous statistics answer to a signed-in request ends the session instead (api.ts). */
export type Answer<K extends keyof Routes> = Exclude<Routes[K]['response'], AnonymousStats>;
/** The signature of `api()`. */
export type ApiCall = <K extends keyof Routes>(route: K, ...request: RequestArgument<Routes[K]>) => Promise<Answer<K>>;

export type RequestParts = { params?: Record<string, string | number>; query?: Record<string, string | number | undefined>; body?: unknown };

/** "METHOD /path/:id" with its params and query, as the method and the URL to request. */
export function routeUrl(route: string, request: RequestParts = {}): { method: string; path: string } {
  const [method = 'GET', pattern = ''] = route.split(' ');
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(request.params?.[name])));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return { method, path: search ? `${path}?${search}` : path };
}
