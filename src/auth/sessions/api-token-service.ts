// The API token service (docs/api.md, "API tokens"; docs/security.md, "API tokens"): the operations of
// api-tokens.ts bound to their dependencies, and the owner's way to a new token. The owner proves it
// again first, as before turning two-factor sign-in off: the current password and, with two-factor
// sign-in on, a code, each counted against the lockout like a sign-in (src/auth/two-factor/reauthenticate.ts,
// given here as a function so that this folder does not import two-factor/). The token is stored in
// that transaction, while the calling session still exists; then the owner is mailed a notice (with SMTP).
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { PublicUser } from '../accounts/users.js';
import {
  checkNewToken,
  createToken,
  insertToken,
  listAllTokens,
  listTokens,
  revokeAllTokens,
  revokeToken,
  revokeTokenByHash,
  revokeTokenById,
  revokeTokensOfUser,
  type ApiTokenDeps,
  type ApiTokenRecord,
} from './api-tokens.js';

/** The calling session's owner proves it again, then `change` runs in one transaction (src/auth/two-factor/reauthenticate.ts). */
export type Reauthenticate = <T>(
  session: { user: PublicUser; tokenHash: string },
  password: string,
  code: string | undefined,
  change: (trx: Transaction<Database>) => Promise<T>,
) => Promise<T>;

export interface ApiTokenNotice {
  to: string;
  subject: string;
  text: string;
}

export interface ApiTokenServiceDeps extends ApiTokenDeps {
  reauthenticate: Reauthenticate;
  /** Mails a notice off the request path; undefined without SMTP (nothing is sent). */
  notify: ((notice: ApiTokenNotice, label: string) => void) | undefined;
  /** PUBLIC_URL, for the link in the notice. */
  publicUrl: string;
}

/** What the owner sends to make a token: the token's fields and the proof. */
export interface OwnerTokenRequest {
  name: string;
  expiresInDays: number;
  password: string;
  code: string | undefined;
  /** The client address, named in the notice. */
  client: string;
}

export function apiTokenNoticeText(user: PublicUser, record: ApiTokenRecord, client: string, publicUrl: string): string {
  return [
    `A new API token was created for your timetrack account ${user.email}:`,
    '',
    `  Name:    ${record.name}`,
    `  Expires: ${record.expires_at} (UTC)`,
    `  Address: ${client}`,
    `  Time:    ${record.created_at} (UTC)`,
    '',
    'If this was you, there is nothing to do.',
    '',
    'If it was not you: open timetrack, go to Settings → API tokens and revoke it, then change your',
    `password there (that ends every API token) and turn on two-factor sign-in: ${publicUrl}/`,
  ].join('\n');
}

/** A new token of the signed-in owner, after the password (and a code) again; the owner is mailed a notice. */
async function createTokenAsOwner(
  deps: ApiTokenServiceDeps,
  session: { user: PublicUser; tokenHash: string },
  request: OwnerTokenRequest,
): Promise<{ token: string; record: ApiTokenRecord }> {
  // The fields first: a wrong name costs no lockout slot.
  const cleanName = checkNewToken(request.name, request.expiresInDays);
  const created = await deps.reauthenticate(session, request.password, request.code, (trx) =>
    insertToken(deps, trx, session.user.id, cleanName, request.expiresInDays),
  );
  deps.notify?.(
    {
      to: session.user.email,
      subject: 'New API token for your timetrack account',
      text: apiTokenNoticeText(session.user, created.record, request.client, deps.publicUrl),
    },
    'api-token',
  );
  return created;
}

export function createApiTokenService(deps: ApiTokenServiceDeps) {
  return {
    /** The owner's way: the password (and a code) again, then a notice. */
    createTokenAsOwner: (session: { user: PublicUser; tokenHash: string }, request: OwnerTokenRequest) => createTokenAsOwner(deps, session, request),
    /** Without asking anyone again: for operators' commands and tests. */
    createToken: (userId: number, name: string, expiresInDays: number) => createToken(deps, userId, name, expiresInDays),
    listTokens: (userId: number) => listTokens(deps, userId),
    revokeToken: (userId: number, id: number) => revokeToken(deps, userId, id),
    listAllTokens: (userId?: number) => listAllTokens(deps, userId),
    revokeTokenById: (id: number) => revokeTokenById(deps, id),
    revokeTokensOfUser: (userId: number) => revokeTokensOfUser(deps, userId),
    revokeTokenByHash: (tokenHash: string) => revokeTokenByHash(deps, tokenHash),
    revokeAllTokens: () => revokeAllTokens(deps),
  };
}
