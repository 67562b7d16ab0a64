// `timetrack migrate` and `serve --no-migrate`: the schema changes only through migrations/.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startServer } from '../support/server.js';
import { cli, tempDb } from '../support/cli-accounts.js';

const MIGRATIONS = ['001_accounts_and_sessions', '002_time_tracking', '003_daily_totals_covering_index', '006_audit_and_session_details'];

describe('timetrack migrate', () => {
  it('lists pending migrations by name, applies them, then lists them as applied', async () => {
    const db = tempDb();
    const pending = JSON.parse((await cli(db, ['--json', 'migrate', '--status'])).stdout as string) as { migrations: Array<{ name: string; applied: boolean }> };
    expect(pending.migrations).toEqual(MIGRATIONS.map((name) => ({ name, applied: false, executed_at: null })));
    const table = await cli(db, ['migrate', '--status']);
    expect(table.stdout).toMatch(/001_accounts_and_sessions\s+pending/);

    const applied = await cli(db, ['migrate']);
    expect(applied.exitCode).toBe(0);
    expect(applied.stdout).toBe(`applied ${MIGRATIONS.length} migration(s): ${MIGRATIONS.join(', ')}`);
    expect((await cli(db, ['migrate'])).stdout).toBe('database is up to date');

    const status = JSON.parse((await cli(db, ['--json', 'migrate', '--status'])).stdout as string) as { migrations: Array<{ applied: boolean; executed_at: string }> };
    expect(status.migrations.every((m) => m.applied && !Number.isNaN(Date.parse(m.executed_at)))).toBe(true);
  });

  it('serve applies pending migrations at start, and --no-migrate leaves them pending', async () => {
    const untouched = tempDb();
    const server = await startServer(untouched, {}, ['--no-migrate']);
    await server.stop();
    const pending = JSON.parse((await cli(untouched, ['--json', 'migrate', '--status'])).stdout as string) as { migrations: Array<{ applied: boolean }> };
    expect(pending.migrations.every((m) => !m.applied)).toBe(true);

    const migrated = tempDb();
    const running = await startServer(migrated);
    const health = await fetch(`${running.baseUrl}/api/health`);
    await running.stop();
    expect(health.status).toBe(200);
    const sqlite = new Database(migrated, { readonly: true });
    const tables = (sqlite.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
    sqlite.close();
    expect(tables).toEqual(expect.arrayContaining(['users', 'auth_info', 'auth_tokens', 'reset_tokens', 'time_entries', 'absences', 'kysely_migration']));
  });
});
