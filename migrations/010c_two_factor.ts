// Two-factor sign-in (docs/api.md, "Two-factor sign-in"): per account a TOTP secret, stored encrypted
// (AES-256-GCM under a key derived from the server secret, never in the database: src/auth/secret-box.ts)
// with the last time step used (a code is accepted once); the recovery codes, stored as SHA-256,
// each used once; and the short-lived challenges between the password and the code. Everything goes
// with its account. Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { generatedId, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const instant = instantType(db);
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_ciphertext', 'text', (col) => col.notNull())
    // Null while set up but not yet confirmed with a code.
    .addColumn('enabled_at', instant)
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('updated_at', instant, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('used_at', instant)
    .addUniqueConstraint('two_factor_recovery_codes_unique', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('login_challenges')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('purpose', 'text', (col) => col.notNull().check(sql`purpose in ('sign_in', 'setup')`))
    // SHA-256 of the password hash that was verified: a password change or reset voids the challenge.
    .addColumn('password_fingerprint', 'text', (col) => col.notNull())
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('expires_at', instant, (col) => col.notNull())
    .addColumn('used_at', instant)
    .execute();
  await db.schema.createIndex('login_challenges_user_id').on('login_challenges').column('user_id').execute();
  await db.schema.createIndex('login_challenges_expires_at').on('login_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['login_challenges', 'two_factor_recovery_codes', 'two_factor']) await db.schema.dropTable(table).execute();
}
