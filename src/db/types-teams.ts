// Table types of the team layer (docs/teams.md): the role of an account (a column of `users`).
// Kept apart from src/db/types.ts, which holds the rest of the schema.

/** What an account may do (docs/teams.md): `member` by default. */
export type UserRole = 'admin' | 'lead' | 'member';
