// `timetrack migrate` refuses while a server of an older version still writes, in one sentence that
// names the running version (docs/operations.md, "Upgrading"). An older server is played by this
// build with its newest migrations taken back behind its back, so that the database needs migrations
// the running server's schema lacks. On SQLite the server announces itself through the file's lock (its pid and
// version); on PostgreSQL through its row in the process registry, where a row planted with an older
// `last_migration` stands for a process of an older version (one of this build knows every migration).
import { describe, expect, it } from 'vitest';
import { cli, tempDb } from '../support/cli-accounts.js';
import { onPostgres, queryRows } from '../support/database.js';
import { appliedMigrations, TAKEN_BACK, TAKEN_BACK_MIGRATIONS, takeBackMigrations } from '../support/taken-back-migrations.js';
import { startServer } from '../support/server.js';
import { packageVersion } from '../../src/version.js';

const VERSION = packageVersion();

describe.skipIf(onPostgres)('migrate beside a running server (SQLite: the file lock names its version)', () => {
  it('refuses while the server holds the file and a migration is pending, naming the running version; up to date is said beside it; applies once it stopped', async () => {
    const db = tempDb();
    const server = await startServer(db);
    try {
      // Nothing pending: said, nothing refused.
      const current = await cli(db, ['migrate']);
      expect(current.exitCode).toBe(0);
      expect(String(current.stdout)).toContain('database is up to date');

      await takeBackMigrations(db);
      const refused = await cli(db, ['migrate']);
      expect(refused.exitCode).toBe(1);
      expect(String(refused.stderr).trim()).toBe(
        `timetrack: stop the running ${VERSION} server first: timetrack serve ${VERSION} (pid ${server.process.pid}) is using ${db} and would not know its new schema (systemctl stop timetrack, then migrate, then start it)`,
      );
      expect(await appliedMigrations(db)).not.toContain(TAKEN_BACK);
    } finally {
      await server.stop();
    }
    const migrated = await cli(db, ['migrate']);
    expect(migrated.exitCode).toBe(0);
    expect(String(migrated.stdout)).toContain(`applied ${TAKEN_BACK_MIGRATIONS.length} migration(s): ${TAKEN_BACK}`);
  });
});

describe.runIf(onPostgres)('migrate beside running processes (PostgreSQL: the process registry)', () => {
  it('refuses while a process that does not know a pending migration still writes; a row gone stale, or one that stopped writing, no longer counts', async () => {
    const db = tempDb();
    // This build's own process knows every migration: never in the way.
    const server = await startServer(db);
    try {
      await expect.poll(async () => (await queryRows(db, 'select pid from server_processes')).length, { timeout: 10_000 }).toBe(1);
      await takeBackMigrations(db);
      await queryRows(
        db,
        "insert into server_processes (id, version, last_migration, pid, host, writing, started_at, heartbeat_at) values ('older', '0.2.9', '20261126170500_zone_history', 4242, 'web-1', 1, now(), now())",
      );
      const refused = await cli(db, ['migrate']);
      expect(refused.exitCode).toBe(1);
      expect(String(refused.stderr).trim()).toBe(
        "timetrack: stop the running 0.2.9 server first: 0.2.9 (pid 4242 on web-1) still writes to this database and would not know its new schema (or start this version's `serve` processes: they wait until the older ones stop writing, then migrate)",
      );
      expect(await appliedMigrations(db)).not.toContain(TAKEN_BACK);

      // Stopped writing (it saw the newer version): migrate goes ahead.
      await queryRows(db, "update server_processes set writing = 0 where id = 'older'");
      await takeBackMigrations(db);
      expect((await cli(db, ['migrate'])).exitCode).toBe(0);
      expect(await appliedMigrations(db)).toContain(TAKEN_BACK);

      // Gone (no heartbeat for more than 30 s): ignored.
      await takeBackMigrations(db);
      await queryRows(db, "update server_processes set writing = 1, heartbeat_at = now() - interval '31 seconds' where id = 'older'");
      const migrated = await cli(db, ['migrate']);
      expect(migrated.exitCode).toBe(0);
      expect(String(migrated.stdout)).toContain(`applied ${TAKEN_BACK_MIGRATIONS.length} migration(s): ${TAKEN_BACK}`);
    } finally {
      await server.stop();
    }
  });
});
