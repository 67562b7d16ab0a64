// The path the request line logs: the route pattern that answered (so `/api/auth/%6cogin`,
// `/%61pi/auth/login`, `/api/auth/login#x` and an absolute-form target all log `/api/auth/login`),
// else the target's path decoded and normalised. Never the raw target, never the query string.
import type { FastifyRequest } from 'fastify';

/** Decodes percent escapes, drops the query and fragment, the scheme and host of an absolute-form target, and resolves dot segments. */
/** A path that is already normal: segments of unreserved characters, none empty, none a dot segment. */
const NORMAL_PATH = /^(?:\/[\w~-][\w.~-]*)+$/;

export function normalizedPath(target: string): string {
  if (NORMAL_PATH.test(target)) return target;
  let rest = target.split('#')[0]?.split('?')[0] ?? '';
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length);
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    let segment = raw;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      // A malformed escape stays as it was.
    }
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  // Control characters would let a target forge or break a log line in a text log.
  return `/${segments.join('/')}`.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
}

export function loggedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  return pattern !== undefined && !pattern.includes('*') ? pattern : normalizedPath(request.url);
}
