// Health reads the database file on every check (src/db/database.ts, `probe`). With the
// prepared-statement cache, a `select 1` is prepared once and then answered by SQLite alone, without
// the file: a probe built on it would say "ok" for a file nobody can read.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../../src/db/sqlite.js';
import { systemClock } from '../../src/common/clock.js';
import { createHealthService } from '../../src/common/health.js';
import { makeTempDir } from '../support/app.js';

describe('health', () => {
  it('is unhealthy while another connection holds the database, though a cached `select 1` still answers', async () => {
    const file = path.join(makeTempDir(), 'locked.db');
    const database = openSqliteDatabase(file);
    database.sqlite.pragma('busy_timeout = 0');
    database.sqlite.pragma('journal_mode = delete'); // in WAL mode a reader is never blocked by a writer
    database.sqlite.exec('create table items (id integer primary key)');
    const health = createHealthService(database, systemClock, async () => {});
    const other = new SQLite(file);
    try {
      await sql`select 1`.execute(database.db); // prepared and cached while the file is free
      expect(await health.isHealthy()).toBe(true);
      other.exec('begin exclusive');
      await expect(sql`select 1`.execute(database.db)).resolves.toBeDefined();
      expect(await health.isHealthy()).toBe(false);
      other.exec('rollback');
      expect(await health.isHealthy()).toBe(true);
    } finally {
      other.close();
      await database.db.destroy();
    }
  });
});
