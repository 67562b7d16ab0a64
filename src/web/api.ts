// The one way the client talks to the API: same origin, JSON, the token only in the Authorization header.
// Any 401 ends the session here: the token is deleted and the client goes to /login.
//
// One account per browser: the token lives in localStorage, which every tab shares. The page remembers
// the token it shows the account of (`pageToken`); a request goes out only with that token, and only
// while localStorage still holds it. When another tab signs out, in or as someone else (the storage
// event, and a check when the tab becomes visible), this tab follows at once.
import { signal } from '@preact/signals';
import type { User } from '../http/contract.js';
import type { DownloadRoutes } from '../http/routes-table.js';
import { t } from './i18n/index.js';
import { errorMessage, type ApiFailure } from './messages.js';
import { navigate } from './router.js';
import { routeUrl, type ApiCall, type Loose, type RequestParts } from './routes.js';

const TOKEN_KEY = 'timetrack.token';

/** The signed-in account; undefined while the session is being restored, null when signed out. */
export const currentUser = signal<User | null | undefined>(undefined);
/** The role of the signed-in account (GET /api/auth/me): Administration is shown to an admin only. */
export const currentRole = signal<'admin' | 'lead' | 'member' | undefined>(undefined);
/** The teams of the signed-in account and its role in each (GET /api/auth/me), read with the role. */
export const currentTeams = signal<Array<{ id: number; name: string; role: 'lead' | 'member' }>>([]);
/** Changes whenever the page switches account: the signed-in part remounts, forgetting the other account's data. */
export const sessionVersion = signal(0);

let pageToken: string | null = null;

export function storedToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/** A sign-in in this tab: the token is stored for every tab and becomes this page's. */
export function keepSession(token: string, user: User): void {
  localStorage.setItem(TOKEN_KEY, token);
  pageToken = token;
  currentRole.value = undefined;
  currentTeams.value = [];
  currentUser.value = user;
  sessionVersion.value += 1;
}

export function endSession(message?: string): void {
  if (storedToken() === pageToken) localStorage.removeItem(TOKEN_KEY);
  pageToken = null;
  currentUser.value = null;
  sessionVersion.value += 1;
  navigate('/login', { replace: true, message });
}

export class ApiError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(errorMessage(failure, t()));
  }
}

/** Another tab changed the account: this request is not sent, and the page follows. */
function sessionMoved(): ApiError {
  void followStoredSession();
  return new ApiError({ status: 0, code: 'SESSION_CHANGED' });
}

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = pageToken;
  if (token !== storedToken()) throw sessionMoved();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' });
  } catch {
    throw new ApiError({ status: 0, code: 'NETWORK' });
  }
  if (response.ok) return response;
  let answer: Partial<ApiFailure> = {};
  try {
    answer = (await response.json()) as Partial<ApiFailure>;
  } catch {
    // A proxy's HTML error page: the status alone decides the sentence.
  }
  const retryAfter = Number(response.headers.get('Retry-After'));
  const failure: ApiFailure = {
    status: response.status,
    code: String(answer.code ?? ''),
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    details: Array.isArray(answer.details) ? answer.details : undefined,
    entry: answer.entry ?? undefined,
  };
  if (response.status === 401 && token && token === pageToken) endSession(errorMessage({ status: 401, code: 'UNAUTHORIZED' }, t()));
  throw new ApiError(failure);
}

/** The statistics routes never answer 401: a token they did not accept shows as an answer without user data. */
function isAnonymousStats(path: string, answer: unknown): boolean {
  if (!path.startsWith('/api/stats/') || typeof answer !== 'object' || answer === null) return false;
  const stats = answer as { authenticated?: boolean; totals?: { target_minutes: number | null } };
  return stats.authenticated === false || stats.totals?.target_minutes === null;
}

/** Calls a route of the table (src/http/routes-table.ts), e.g. `api('PATCH /api/time-entries/:id', { params: { id }, body })`. */
export const api: ApiCall = async (route, ...[request]) => {
  const parts = (request ?? {}) as RequestParts;
  const { method, path } = routeUrl(route, parts);
  // The answer as the route table describes it (the route's response schema).
  return (await fetchAnswer(method, path, parts.body)) as never;
};

/** Sends one request and reads its JSON answer (used by `api` and by the prefetched requests). */
export async function fetchAnswer(method: string, path: string, body?: unknown): Promise<unknown> {
  const sentWith = pageToken;
  const response = await send(method, path, body);
  const text = await response.text();
  const answer: unknown = text ? JSON.parse(text) : undefined;
  if (sentWith !== pageToken) throw sessionMoved();
  if (isAnonymousStats(path, answer) && sentWith) {
    const failure: ApiFailure = { status: 401, code: 'UNAUTHORIZED' };
    endSession(errorMessage(failure, t()));
    throw new ApiError(failure);
  }
  return answer;
}

/** A file of the API (CSV export, timesheet): fetched with the header (a plain link could not carry the token). */
export async function downloadFile<K extends keyof DownloadRoutes>(
  route: K,
  request: Loose<DownloadRoutes[K]>,
  name: string,
): Promise<{ url: string; name: string }> {
  const response = await send('GET', routeUrl(route, request as RequestParts).path);
  return { url: URL.createObjectURL(await response.blob()), name };
}

/** Saves a downloaded file in the browser (a click on a temporary link). */
export function saveFile(file: { url: string; name: string }): void {
  const link = document.createElement('a');
  link.href = file.url;
  link.download = file.name;
  link.click();
}

/** The CSV of the time entries. */
export const downloadExport = () => downloadFile('GET /api/time-entries/export', {}, 'time-entries.csv');
/** The whole account as one JSON document (docs/api.md, GET /api/settings/export). */
export const downloadAccountData = () => downloadFile('GET /api/settings/export', {}, 'timetrack-account.json');

/** A failure as the sentence to show. */
export function describe(error: unknown): string {
  return error instanceof ApiError ? error.message : errorMessage({ status: 0, code: 'NETWORK' }, t());
}

let restoreError: string | undefined;
export const takeRestoreError = (): string | undefined => restoreError;

/** Makes the page show the account of the token in localStorage (none: signed out). */
export async function followStoredSession(): Promise<void> {
  const token = storedToken();
  if (token === pageToken && currentUser.value !== undefined) return;
  const wasSignedIn = pageToken !== null;
  pageToken = token;
  sessionVersion.value += 1;
  if (!token) {
    currentUser.value = null;
    if (wasSignedIn) navigate('/login', { replace: true, message: t().auth.signedOutElsewhere });
    return;
  }
  currentUser.value = undefined;
  try {
    const { user, role, teams } = await api('GET /api/auth/me');
    if (pageToken === token) {
      currentRole.value = role;
      currentTeams.value = teams;
      currentUser.value = user;
    }
  } catch (error) {
    // A 401 already signed out; anything else leaves the token for a later try.
    if (pageToken === token && currentUser.value === undefined) {
      restoreError = describe(error);
      currentUser.value = null;
    }
  }
}

addEventListener('storage', (event) => {
  if (event.key === TOKEN_KEY || event.key === null) void followStoredSession();
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && storedToken() !== pageToken) void followStoredSession();
});
