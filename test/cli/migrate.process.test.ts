// `timetrack migrate` and `serve --no-migrate`: the schema changes only through migrations/.
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { describe, expect, it } from 'vitest';
import { startServer } from '../support/server.js';
import { cli, expectFailure, tempDb, tempDbPath } from '../support/cli-accounts.js';
import { cliInProcess, refusedServeInProcess } from '../support/cli-in-process.js';
import { databaseLine, queryRows, tableNames } from '../support/database.js';

const MIGRATIONS = [
  '001_accounts_and_sessions',
  '002_time_tracking',
  '003_daily_totals_covering_index',
  '004_daily_totals_by_first_instant_of_day',
  '005_failed_login_identifiers_hashed',
  '006_audit_and_session_details',
  '007_reset_token_origin',
  '008_username_lookup_by_lower',
  '009_target_schedules',
  '009b_absence_portion',
  '009c_bookings',
  '009d_break_rules',
  '009e_vacation_allowance',
  '009f_forgotten_timer',
  '010_session_activity',
  '010b_api_tokens',
  '010c_two_factor',
  '010d_login_devices',
  '011_export_leases',
  '20261126170000_absence_requests',
  '20261126170100_running_entry_from_start',
  '20261126170200_timer_limit_default',
  '20261126170300_vacation_taken_before_tracking',
  '20261126170500_zone_history',
  '20261126173500_split_shift_breaks',
  '20261126230000_second_factor_failures',
  '20261126233000_server_processes',
  '20261127022500_user_roles',
  '20261127024000_teams',
  '20261127030000_invitations',
  '20261127053000_admin_setup_links',
  '20261127054500_team_name_key',
  '20261127090000_months',
  '20261127090500_leave_requests',
  '20261127091000_notices',
];

describe('timetrack migrate', () => {
  it('lists pending migrations by name, applies them, then lists them as applied', async () => {
    const db = tempDbPath();
    const pending = JSON.parse((await cli(db, ['--json', 'migrate', '--status'])).stdout as string) as { migrations: Array<{ name: string; state: string }> };
    expect(pending.migrations).toEqual(MIGRATIONS.map((name) => ({ name, state: 'pending', executed_at: null })));
    const table = await cliInProcess(db, ['migrate', '--status']);
    expect(table.stdout).toMatch(/001_accounts_and_sessions\s+pending/);

    const applied = await cli(db, ['migrate']);
    expect(applied.exitCode).toBe(0);
    // A new SQLite file is said (a PostgreSQL database is made by its administrator).
    expect(applied.stdout).toBe(
      `applied ${MIGRATIONS.length} migration(s): ${MIGRATIONS.join(', ')}\n${onPostgres ? '' : 'created a new, empty database\n'}${databaseLine(db)}`,
    );
    expect((await cliInProcess(db, ['migrate'])).stdout).toBe(`database is up to date\n${databaseLine(db)}`);

    const status = JSON.parse((await cliInProcess(db, ['--json', 'migrate', '--status'])).stdout as string) as {
      migrations: Array<{ state: string; executed_at: string }>;
    };
    expect(status.migrations.every((m) => m.state === 'applied' && !Number.isNaN(Date.parse(m.executed_at)))).toBe(true);
  });

  it('serve applies pending migrations at start and logs each; --no-migrate refuses a database that needs one', async () => {
    const untouched = tempDbPath();
    fs.closeSync(fs.openSync(untouched, 'w')); // an empty SQLite file: no migration applied yet
    expectFailure(
      await cli(untouched, ['serve', '--no-migrate', '--port', '0']),
      1,
      new RegExp(`needs ${MIGRATIONS.length} migration\\(s\\).*run \`timetrack migrate\` first`),
    );

    const migrated = tempDbPath();
    const running = await startServer(migrated);
    const health = await fetch(`${running.baseUrl}/api/health`);
    await running.stop();
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      commit: expect.any(String),
      engine: expect.any(String),
    });
    for (const name of MIGRATIONS) expect(running.output()).toMatch(new RegExp(`"migration":"${name}".*"msg":"migration applied"`));
    expect(running.output()).toMatch(/"version":"\d+\.\d+\.\d+.*"msg":"timetrack started"/);
    const tables = await tableNames(migrated);
    expect(tables).toEqual(expect.arrayContaining(['users', 'auth_info', 'auth_tokens', 'reset_tokens', 'time_entries', 'absences', 'kysely_migration']));
  });

  it('read-only commands never migrate: they say a migration is pending and stop', async () => {
    const db = tempDb();
    await queryRows(db, 'delete from kysely_migration where name = ?', [MIGRATIONS[2]]);
    // The first through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    for (const [index, args] of [
      ['user', 'list'],
      ['user', 'show', 'ann@example.com'],
      ['token', 'list', '--user', 'ann@example.com'],
    ].entries()) {
      expectFailure(
        await (index === 0 ? cli : cliInProcess)(db, args),
        1,
        new RegExp(`needs 1 migration\\(s\\) \\(${MIGRATIONS[2]}\\); run \`timetrack migrate\` first`),
      );
    }
    const status = JSON.parse((await cliInProcess(db, ['--json', 'migrate', '--status'])).stdout as string) as {
      migrations: Array<{ name: string; state: string }>;
    };
    expect(status.migrations.find((m) => m.name === MIGRATIONS[2])?.state).toBe('pending');
  });

  it('a database written by a newer version is refused by every command, and migrate --status lists what it does not know', async () => {
    const db = tempDb();
    await queryRows(db, 'insert into kysely_migration (name, timestamp) values (?, ?)', ['099_from_the_future', new Date().toISOString()]);
    const newer = /written by a newer version of timetrack \(migrations this version does not know: 099_from_the_future\)/;
    expectFailure(await cli(db, ['migrate']), 1, newer);
    expectFailure(await cliInProcess(db, ['user', 'list']), 1, newer);
    expectFailure(await cli(db, ['serve', '--port', '0']), 1, newer);
    // The second refusal of serve and the status through the same bundle in process (docs/testing.md, "How fast").
    expectFailure(await refusedServeInProcess(['--db', db, 'serve', '--no-migrate', '--port', '0']), 1, newer);
    const table = await cliInProcess(db, ['migrate', '--status']);
    expect(table.stdout).toMatch(/099_from_the_future\s+unknown \(written by a newer version\)/);
  });
});

describe.skipIf(onPostgres)('read-only commands on a SQLite file that does not exist (files: SQLite only)', () => {
  it('migrate --status, check and config report it and create neither the file nor its folders', async () => {
    const parent = makeTempDir('timetrack-absent-');
    const db = path.join(parent, 'state', 'deeper', 'timetrack.db');
    const status = await cli(db, ['migrate', '--status']);
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toMatch(/001_accounts_and_sessions\s+pending/);
    expect(String(status.stdout).split('\n').at(-1)).toBe(`database: ${db} (does not exist yet; \`timetrack migrate\` creates it)`);
    const json = JSON.parse(String((await cliInProcess(db, ['--json', 'migrate', '--status'])).stdout)) as { migrations: Array<{ state: string }> };
    expect(json.migrations.every((m) => m.state === 'pending')).toBe(true);
    const check = await cliInProcess(db, ['check']);
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toMatch(/^PROBLEM database: no database at /m);
    expect((await cliInProcess(db, ['config'])).exitCode).toBe(0);
    expect(fs.readdirSync(parent)).toEqual([]);
  });
});
