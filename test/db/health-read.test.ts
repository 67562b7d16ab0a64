// Health reads the database file on every check (src/services/health.ts). With the prepared-statement
// cache, a `select 1` is prepared once and then answered by SQLite alone, without the file.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cachePreparedStatements } from '../../src/db/database.js';
import type { Database } from '../../src/db/types.js';
import { systemClock } from '../../src/services/clock.js';
import { createHealthService } from '../../src/services/health.js';
import { makeTempDir } from '../helpers/context.js';

describe('health', () => {
  it('is unhealthy while another connection holds the database, though a cached `select 1` still answers', async () => {
    const file = path.join(makeTempDir(), 'locked.db');
    const sqlite = new SQLite(file, { timeout: 0 });
    sqlite.exec('create table items (id integer primary key)');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachePreparedStatements(sqlite) }) });
    const health = createHealthService(db, systemClock);
    const other = new SQLite(file);
    try {
      await sql`select 1`.execute(db); // prepared and cached while the file is free
      expect(await health.isHealthy()).toBe(true);
      other.exec('begin exclusive');
      await expect(sql`select 1`.execute(db)).resolves.toBeDefined();
      expect(await health.isHealthy()).toBe(false);
      other.exec('rollback');
      expect(await health.isHealthy()).toBe(true);
    } finally {
      other.close();
      await db.destroy();
    }
  });
});
