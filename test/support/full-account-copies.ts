// Full accounts for the load tests without an import per account: an import of a document of
// thousands of entries costs about a second of CPU (the time zone of every entry), and the load tests
// want several accounts of the same document. One account is imported (`createFullAccount`'s
// document, `user import` of the built bundle run in process); the others are copies of its rows made
// in SQL, row for row what the same import gives another account (its user, password, settings, zone
// history, entries and daily totals); its audit records are not copied. On SQLite the file the first
// import left is kept per worker and set of options, so a later database of the same options copies
// that file instead of importing again (docs/testing.md, "How fast").
import fs from 'node:fs';
import path from 'node:path';
import { tempDb } from './cli-accounts.js';
import { cliInProcess } from './cli-in-process.js';
import { onPostgres, queryRows } from './database.js';
import { createFullAccount, type FillOptions } from './full-account.js';

/** The tables of an account's rows an import writes, copied; its audit records are not. */
const ACCOUNT_TABLES = ['auth_info', 'user_settings', 'zone_history', 'target_schedules', 'time_entries', 'absences', 'bookings', 'daily_totals'];

/** The address of the account a kept file holds; renamed to the first of the accounts asked for. */
const TEMPLATE_EMAIL = 'full-account-template@example.com';

/** Files with one imported account, by the options of its document (SQLite). */
const templates = new Map<string, string>();

/** A new database (as `tempDb` makes it) with a full account (`createFullAccount`'s) for each address. */
export async function fullAccountsDb(emails: string[], options: FillOptions): Promise<string> {
  const [first, ...others] = emails;
  if (first === undefined) throw new Error('fullAccountsDb: no account asked for');
  const db = tempDb();
  if (onPostgres) {
    await importFullAccount(db, first, options);
  } else {
    const key = JSON.stringify(options);
    let template = templates.get(key);
    if (template === undefined) {
      const made = tempDb();
      await importFullAccount(made, TEMPLATE_EMAIL, options);
      for (const side of ['-wal', '-shm', '-journal']) if (fs.existsSync(`${made}${side}`)) throw new Error(`the import left ${made}${side} behind`);
      template = path.join(path.dirname(made), 'full-account-template.db');
      fs.renameSync(made, template);
      const folder = path.dirname(made);
      process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
      templates.set(key, template);
    }
    fs.copyFileSync(template, db);
    await queryRows(db, 'update users set email = ? where email = ?', [first, TEMPLATE_EMAIL]);
  }
  for (const email of others) await copyAccount(db, first, email);
  return db;
}

/** `createFullAccount` with its `user import` run in process (a node process less). */
export function importFullAccount(db: string, email: string, options: FillOptions): Promise<void> {
  return createFullAccount(db, email, options, cliInProcess);
}

/** Copies the account `from` of `db`, with all its rows in ACCOUNT_TABLES, as a new account `to`. */
async function copyAccount(db: string, from: string, to: string): Promise<void> {
  const [user] = await queryRows<Record<string, unknown>>(db, 'select * from users where email = ?', [from]);
  if (user === undefined) throw new Error(`copyAccount: no account ${from}`);
  const userColumns = Object.keys(user).filter((column) => column !== 'id' && column !== 'email');
  const [copy] = await queryRows<{ id: number }>(
    db,
    `insert into users (email, ${userColumns.join(', ')}) select ?, ${userColumns.join(', ')} from users where id = ? returning id`,
    [to, user.id],
  );
  // A table that is not copied holds no row of the account (else a copy would miss it).
  for (const table of await tablesOfAccounts(db)) {
    if (ACCOUNT_TABLES.includes(table) || table === 'audit_events') continue;
    const rows = await queryRows(db, `select user_id from ${table} where user_id = ? limit 1`, [user.id]);
    if (rows.length > 0) throw new Error(`copyAccount: ${from} has rows in ${table}, which is not copied`);
  }
  for (const table of ACCOUNT_TABLES) {
    const [row] = await queryRows<Record<string, unknown>>(db, `select * from ${table} where user_id = ? limit 1`, [user.id]);
    if (row === undefined) continue;
    const columns = Object.keys(row).filter((column) => column !== 'id' && column !== 'user_id');
    await queryRows(db, `insert into ${table} (user_id, ${columns.join(', ')}) select ?, ${columns.join(', ')} from ${table} where user_id = ?`, [
      copy!.id,
      user.id,
    ]);
  }
}

/** The tables with a user_id column. */
async function tablesOfAccounts(db: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    onPostgres
      ? "select table_name as name from information_schema.columns where table_schema = current_schema() and column_name = 'user_id'"
      : "select m.name as name from sqlite_master m, pragma_table_info(m.name) c where m.type = 'table' and c.name = 'user_id'",
  );
  return rows.map((row) => row.name);
}
