// `timetrack db copy --to <postgres url>`: moves an install from its SQLite file to PostgreSQL
// (docs/database.md, "Moving to PostgreSQL"). The target gets this build's schema, then every row of
// every table, with its id, in one transaction; the counts are compared before it commits, so the
// copy is whole or absent. The source is read inside one transaction: a consistent snapshot.
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from './migrate.js';
import { CopyError, type OpenedDatabase, type PostgresPoolSettings } from './database.js';
import { TABLES, type TableName } from './tables.js';
import type { Database } from './types.js';

/** How each table is read in batches (the columns that order it) and whether its id is an identity column. */
const HOW_TO_COPY: Record<TableName, { key: string[]; identity: boolean }> = {
  users: { key: ['id'], identity: true },
  teams: { key: ['id'], identity: true },
  team_members: { key: ['team_id', 'user_id'], identity: false },
  months: { key: ['user_id', 'month'], identity: false },
  auth_info: { key: ['user_id'], identity: false },
  auth_tokens: { key: ['id'], identity: true },
  api_tokens: { key: ['id'], identity: true },
  two_factor: { key: ['user_id'], identity: false },
  two_factor_failures: { key: ['user_id'], identity: false },
  two_factor_recovery_codes: { key: ['id'], identity: true },
  login_challenges: { key: ['id'], identity: true },
  login_devices: { key: ['user_id', 'key_hash'], identity: false },
  reset_tokens: { key: ['id'], identity: true },
  unknown_login_failures: { key: ['identifier'], identity: false },
  audit_events: { key: ['id'], identity: true },
  user_settings: { key: ['user_id'], identity: false },
  target_schedules: { key: ['id'], identity: true },
  zone_history: { key: ['user_id', 'valid_from'], identity: false },
  time_entries: { key: ['id'], identity: true },
  absences: { key: ['id'], identity: true },
  bookings: { key: ['id'], identity: true },
  daily_totals: { key: ['user_id', 'date'], identity: false },
  export_leases: { key: ['user_id'], identity: false },
  server_processes: { key: ['id'], identity: false },
  invitations: { key: ['id'], identity: true },
  admin_setup_links: { key: ['token_hash'], identity: false },
  leave_requests: { key: ['id'], identity: false },
  notices: { key: ['id'], identity: true },
  notice_checks: { key: ['user_id', 'kind'], identity: false },
};

/** Every table, parents first (foreign keys: the order of TABLES), with the columns that order a batch read. */
const COPIED = TABLES.map((name) => ({ name, ...HOW_TO_COPY[name] }));

/** Rows per INSERT: far below PostgreSQL's 65,535 parameters for the widest table. */
const BATCH_ROWS = 1000;

export interface CopyResult {
  tables: Array<{ table: string; rows: number }>;
  durationMs: number;
}

async function countRows(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const { count } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Whether the target holds nothing of timetrack's: no table, or this schema with no row at all (a
 * copy that failed after the schema was made). Anything else is refused.
 */
async function assertEmpty(target: Kysely<Database>, location: string): Promise<void> {
  const tables = await target.introspection.getTables({ withInternalKyselyTables: true });
  if (tables.length === 0) return;
  const known = new Set<string>([...TABLES, 'kysely_migration', 'kysely_migration_lock']);
  const foreign = tables.filter((table) => !known.has(table.name)).map((table) => table.name);
  if (foreign.length > 0)
    throw new CopyError(`${location} is not empty (it has the tables ${foreign.slice(0, 5).join(', ')}); copy into a new, empty database`);
  for (const table of TABLES) {
    if (tables.some((t) => t.name === table) && (await countRows(target, table)) > 0) {
      throw new CopyError(`${location} is not empty (${table} has rows); copy into a new, empty database`);
    }
  }
}

/** Rewrites a batch of one table's rows while copying (the two-factor secrets are re-sealed under the sealing key). */
export type RowRewrites = Partial<Record<TableName, (row: Record<string, unknown>) => Record<string, unknown>>>;

export async function copyToPostgres(source: OpenedDatabase, targetUrl: string, pool: PostgresPoolSettings, rewrites: RowRewrites = {}): Promise<CopyResult> {
  if (source.engine !== 'sqlite') throw new CopyError('db copy reads a SQLite database (TIMETRACK_DB); the configured one is PostgreSQL already');
  const started = performance.now();
  const { openPostgresDatabase } = await import('./postgres.js');
  const target = openPostgresDatabase(targetUrl, pool);
  try {
    await assertEmpty(target.db, target.location);
    await migrateToLatest(target.db);
    const tables: CopyResult['tables'] = [];
    await source.transact(async (reader) => {
      await target.transact(async (writer) => {
        for (const table of COPIED) {
          let copied = 0;
          let offset = 0;
          for (;;) {
            // The source is one snapshot (this transaction), so paging by offset in key order is exact.
            let query = reader.selectFrom(table.name).selectAll();
            for (const column of table.key) query = query.orderBy(column as never);
            const rows = (await query.limit(BATCH_ROWS).offset(offset).execute()) as Array<Record<string, unknown>>;
            if (rows.length === 0) break;
            const rewrite = rewrites[table.name];
            await writer
              .insertInto(table.name)
              .values((rewrite ? rows.map(rewrite) : rows) as never)
              .execute();
            copied += rows.length;
            offset += rows.length;
            if (rows.length < BATCH_ROWS) break;
          }
          if (table.identity) {
            // The next id PostgreSQL hands out follows the largest copied one.
            const { largest } = await writer
              .selectFrom(table.name as 'users')
              .select((eb) => eb.fn.max('id').as('largest'))
              .executeTakeFirstOrThrow();
            await sql`select setval(pg_get_serial_sequence(${table.name}, 'id'), ${Number(largest ?? 0) + 1}, false)`.execute(writer);
          }
          const stored = await countRows(writer, table.name);
          if (stored !== copied || stored !== (await countRows(reader, table.name))) {
            throw new CopyError(`${table.name}: ${copied} rows read, ${stored} stored; nothing was copied`);
          }
          tables.push({ table: table.name, rows: stored });
        }
      });
    });
    return { tables, durationMs: Math.round(performance.now() - started) };
  } finally {
    await target.close();
  }
}
