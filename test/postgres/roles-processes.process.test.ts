// The last active admin across two `serve` processes on one PostgreSQL database (docs/teams.md, "The
// last admin"): demotions that race each other, half of them on each process, leave exactly one admin,
// because each one locks the rows of every active admin before it counts them again.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { bindPostgresDatabase, createPostgresDatabase, onPostgres, queryRows } from '../support/database.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

describe.skipIf(!onPostgres)('roles on two serve processes', () => {
  it('10 parallel demotions of the two last admins, split over two processes, leave exactly one admin', { timeout: 120_000 }, async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    bindPostgresDatabase(dbPath, createPostgresDatabase());
    expect((await runCli(['--db', dbPath, 'migrate'])).exitCode).toBe(0);
    for (const email of ['ann@example.com', 'bob@example.com']) {
      const created = await runCli(['--db', dbPath, 'user', 'create', '--email', email, '--name', email, '--role', 'admin', '--password-stdin'], {
        input: `${PASSWORD}\n`,
      });
      expect(created.stderr).toBe('');
    }
    const [a, b] = await Promise.all([startServer(dbPath), startServer(dbPath)]);
    running.push(a, b);
    const signIn = async (server: RunningServer, email: string) => {
      const answer = await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD });
      expect(answer.status).toBe(200);
      return (answer.body as { token: string; user: { id: number } }).token;
    };
    const tokens = {
      ann: [await signIn(a, 'ann@example.com'), await signIn(b, 'ann@example.com')],
      bob: [await signIn(a, 'bob@example.com'), await signIn(b, 'bob@example.com')],
    };
    const ids = (await callJson(a, 'GET', '/api/users', undefined, tokens.ann[0])).body.users.map((u: { id: number }) => u.id) as number[];

    // Each admin demotes the other and itself, five requests each, every other one on the other process;
    // eight rounds, both made admins again by the operator before each.
    for (let round = 0; round < 8; round += 1) {
      for (const email of ['ann@example.com', 'bob@example.com']) expect((await runCli(['--db', dbPath, 'user', 'role', email, 'admin'])).exitCode).toBe(0);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const actor = i < 5 ? tokens.ann[i % 2]! : tokens.bob[i % 2]!;
          return callJson(i % 2 === 0 ? a : b, 'PATCH', `/api/users/${ids[i % 3 === 0 ? 0 : 1]!}`, { role: 'member', password: PASSWORD }, actor);
        }),
      );
      // A demoted admin's next request is 403 FORBIDDEN for itself, 404 for the other (a role is read on every request); the last admin's is 409 LAST_ADMIN.
      for (const answer of answers) expect([200, 403, 404, 409]).toContain(answer.status);
      expect(answers.some((answer) => answer.status === 409 && answer.body.code === 'LAST_ADMIN')).toBe(true);
      expect(await queryRows(dbPath, "select email from users where role = 'admin'")).toHaveLength(1);
    }
  });
});
