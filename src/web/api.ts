// The one way the client talks to the API: same origin, JSON, the token only in the Authorization header.
// Any 401 ends the session here: the token is deleted and the client goes to /login.
import { signal } from '@preact/signals';
import { errorMessage, type ApiFailure } from './messages.js';
import { navigate } from './router.js';

const TOKEN_KEY = 'timetrack.token';

export interface User {
  id: number;
  email: string;
  full_name: string;
  username: string | null;
  created_at: string;
}

/** The signed-in account; undefined while the session is being restored, null when signed out. */
export const currentUser = signal<User | null | undefined>(undefined);

export function storedToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function keepToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function endSession(message?: string): void {
  localStorage.removeItem(TOKEN_KEY);
  currentUser.value = null;
  navigate('/login', { replace: true, message });
}

export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(errorMessage(failure));
  }
}

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = storedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' });
  } catch {
    throw new ApiError({ status: 0, code: 'NETWORK' });
  }
  if (response.ok) return response;
  let code = '';
  try {
    code = String(((await response.json()) as { code?: unknown }).code ?? '');
  } catch {
    // A proxy's HTML error page: the status alone decides the sentence.
  }
  const retryAfter = Number(response.headers.get('Retry-After'));
  const failure: ApiFailure = { status: response.status, code, retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined };
  if (response.status === 401 && token) endSession(errorMessage({ status: 401, code: 'UNAUTHORIZED' }));
  throw new ApiError(failure);
}

/** The statistics routes never answer 401: a token they did not accept shows as an answer without user data. */
function isAnonymousStats(path: string, answer: unknown): boolean {
  if (!path.startsWith('/api/stats/') || typeof answer !== 'object' || answer === null) return false;
  const stats = answer as { authenticated?: boolean; totals?: { target_minutes: number | null } };
  return stats.authenticated === false || stats.totals?.target_minutes === null;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await send(method, path, body);
  const text = await response.text();
  const answer: unknown = text ? JSON.parse(text) : undefined;
  if (isAnonymousStats(path, answer) && storedToken()) {
    const failure: ApiFailure = { status: 401, code: 'UNAUTHORIZED' };
    endSession(errorMessage(failure));
    throw new ApiError(failure);
  }
  return answer as T;
}

/** The CSV export as a file: fetched with the header (a plain link could not carry the token). */
export async function downloadExport(): Promise<{ url: string; name: string }> {
  const response = await send('GET', '/api/time-entries/export');
  return { url: URL.createObjectURL(await response.blob()), name: 'time-entries.csv' };
}

/** A failure as the sentence to show. */
export function describe(error: unknown): string {
  return error instanceof ApiError ? error.message : errorMessage({ status: 0, code: 'NETWORK' });
}
