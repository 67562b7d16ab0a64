// `db copy` refuses a SQLite source a server holds (its single-server lock, docs/operations.md
// "Moving to PostgreSQL"): writes made while it copies would be missing from the copy.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { onPostgres } from '../support/database.js';
import { startServer, type RunningServer } from '../support/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe.skipIf(onPostgres)('db copy and a running server', () => {
  it('refuses a source a server holds, before touching the target', async () => {
    const db = path.join(makeTempDir(), 'timetrack.db');
    expect((await runCli(['--db', db, 'migrate'])).exitCode).toBe(0);
    server = await startServer(db);
    const copy = await runCli(['--db', db, 'db', 'copy', '--to', 'postgres://timetrack@127.0.0.1:1/timetrack']);
    expect(copy.exitCode).not.toBe(0);
    expect(copy.stderr).toMatch(/timetrack serve \(pid \d+\) is using .*stop it first/);
    expect(copy.stderr).not.toMatch(/ECONNREFUSED|connect/i);
  });
});
