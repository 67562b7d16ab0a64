// When each session was last used, for the owner's list of sessions (GET /api/auth/sessions). Written
// at most once per 5 minutes per session, off the request path (src/auth/activity.ts); null until the
// first write (the list then shows the session's start). Frozen in time: uses Kysely<any>.
import type { Kysely } from 'kysely';
import { instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').addColumn('last_seen_at', instantType(db)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').dropColumn('last_seen_at').execute();
}
