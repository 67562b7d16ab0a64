// What a Bearer credential is (docs/api.md, Authentication): an API token (its prefix tells it apart:
// src/auth/sessions/api-tokens.ts) or a session token. Either use is noted for its "last seen" in memory
// (src/auth/sessions/activity.ts: no write on the request's path).
//
// The hot path of every protected request, in this one file: the record lookups are prepared here
// (their queries and row mappers are written beside the services they belong to), and the check is
// synchronous where it can be: SQLite answers the record at once, and a token's signature is checked
// on this thread (once per token and process; decision 0008), so on SQLite a request makes no promise
// (docs/performance.md). On PostgreSQL the lookup answers a promise (one round trip, shared with the
// lookups of the same turn). This file is the only one of src/auth whose results are either.
import type { OpenedDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import type { ActivityRecorder, CredentialKind } from './activity.js';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX, apiTokenLookupQuery, apiTokenRowOfValues, sessionOfApiTokenRow, type ApiTokenRow } from './api-tokens.js';
import {
  hashToken,
  liveRecord,
  sessionLookupQuery,
  sessionOfRecord,
  sessionRecordOfValues,
  unauthorized,
  type AuthenticatedSession,
  type SessionRecordRow,
} from './records.js';

/** Longer than any token this server issues by far; larger headers are refused unread. */
const MAX_TOKEN_LENGTH = 2048;

/** A value now (SQLite, a known token) or a promise of it (PostgreSQL, a first verification). */
type Maybe<T> = T | Promise<T>;

export interface CredentialDeps {
  database: Pick<OpenedDatabase, 'db' | 'prepareLookup'>;
  clock: Clock;
  /** The signature checks of src/auth/sessions/signing.ts (through the session service). */
  sessions: {
    isVerified(tokenHash: string): boolean;
    /** Synchronous (HMAC on this thread); throws UNAUTHORIZED. */
    verifySignature(token: string, tokenHash: string, userId: number, now: Date): void;
  };
  activity: ActivityRecorder;
  options: {
    /** REQUIRE_2FA: an account without two-factor sign-in reaches nothing with an API token. */
    requireTwoFactor: boolean;
  };
}

export function createCredentialService({ database, clock, sessions, activity, options }: CredentialDeps) {
  const lookupSession = database.prepareLookup<SessionRecordRow>(sessionLookupQuery(database.db), sessionRecordOfValues);
  const lookupApiToken = database.prepareLookup<ApiTokenRow>(apiTokenLookupQuery(database.db, options.requireTwoFactor), apiTokenRowOfValues);

  function noted(kind: CredentialKind, credential: AuthenticatedSession): AuthenticatedSession {
    activity.seen(kind, credential.tokenHash);
    return credential;
  }

  /** The record, its expiry, and the signature (verified once per token and process); every failure is UNAUTHORIZED. */
  function checkSession(token: string, tokenHash: string, found: SessionRecordRow | undefined, now: Date): AuthenticatedSession {
    const record = liveRecord(found, now);
    if (!sessions.isVerified(tokenHash)) sessions.verifySignature(token, tokenHash, record.id, now);
    return sessionOfRecord(record, tokenHash);
  }

  function sessionToken(token: string): Maybe<AuthenticatedSession> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw unauthorized();
    const tokenHash = hashToken(token);
    const now = clock.now();
    const found = lookupSession(tokenHash);
    return found instanceof Promise ? found.then((row) => checkSession(token, tokenHash, row, now)) : checkSession(token, tokenHash, found, now);
  }

  function apiToken(token: string): Maybe<AuthenticatedSession> {
    if (!API_TOKEN_PATTERN.test(token)) throw unauthorized();
    const tokenHash = hashToken(token);
    const now = clock.now();
    const found = lookupApiToken(tokenHash);
    return found instanceof Promise ? found.then((row) => sessionOfApiTokenRow(tokenHash, row, now)) : sessionOfApiTokenRow(tokenHash, found, now);
  }

  /**
   * The session of a bearer credential, synchronous where its check is (SQLite): no promise is made
   * for a request that needs none (docs/performance.md). Throws (or rejects with) UNAUTHORIZED.
   */
  function authenticate(token: string): Maybe<AuthenticatedSession> {
    const kind: CredentialKind = token.startsWith(API_TOKEN_PREFIX) ? 'api_token' : 'session';
    const checked = kind === 'api_token' ? apiToken(token) : sessionToken(token);
    return checked instanceof Promise ? checked.then((credential) => noted(kind, credential)) : noted(kind, checked);
  }

  /**
   * As authenticate, answered to callbacks: `accept` in the same turn when the check is synchronous,
   * `refuse` with the error (thrown or rejected). For a hook that must not make a promise of its own.
   */
  function check(token: string, accept: (session: AuthenticatedSession) => void, refuse: (error: Error) => void): void {
    let checked: Maybe<AuthenticatedSession>;
    try {
      checked = authenticate(token);
    } catch (error) {
      return refuse(error as Error);
    }
    if (checked instanceof Promise) checked.then(accept, refuse);
    else accept(checked);
  }

  return { authenticate, check };
}

export type CredentialService = ReturnType<typeof createCredentialService>;
