// Table types of the current schema. Migrations never import these: they are frozen in time.
import type { Generated, Insertable, Selectable } from 'kysely';

/** ISO 8601 instant in UTC with milliseconds, e.g. 2026-11-22T08:00:00.000Z (sorts as text). */
export type Instant = string;

export interface UsersTable {
  id: Generated<number>;
  /** Trimmed and lower-cased. */
  email: string;
  full_name: string;
  /** Unique without regard to ASCII case (COLLATE NOCASE). */
  username: string | null;
  created_at: Instant;
}

export type AccountStatus = 'active' | 'disabled';

export interface AuthInfoTable {
  user_id: number;
  /** argon2id PHC string. */
  password_hash: string;
  failed_attempts: number;
  locked_until: Instant | null;
  status: AccountStatus;
  updated_at: Instant;
}

export interface AuthTokensTable {
  id: Generated<number>;
  user_id: number;
  /** Hex SHA-256 of the whole JWT. */
  token_hash: string;
  created_at: Instant;
  expires_at: Instant;
}

export interface ResetTokensTable {
  id: Generated<number>;
  user_id: number;
  /** Hex SHA-256 of the reset token. */
  token_hash: string;
  created_at: Instant;
  expires_at: Instant;
  used_at: Instant | null;
}

/** Failed logins against identifiers that match no account, so that lockout does not reveal which exist. */
export interface UnknownLoginFailuresTable {
  identifier: string;
  failed_attempts: number;
  locked_until: Instant | null;
  updated_at: Instant;
}

export interface Database {
  users: UsersTable;
  auth_info: AuthInfoTable;
  auth_tokens: AuthTokensTable;
  reset_tokens: ResetTokensTable;
  unknown_login_failures: UnknownLoginFailuresTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
