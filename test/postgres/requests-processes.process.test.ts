// Two leads deciding one leave request at once through two `serve` processes on one PostgreSQL
// database (docs/teams.md, "Leave requests"): one decision stands and the other answers 409
// ALREADY_DECIDED, because each reads the request after locking its person's account row.
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { bindPostgresDatabase, createPostgresDatabase, onPostgres, queryRows } from '../support/database.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

const ROUNDS = 12;

describe.skipIf(!onPostgres)('leave requests on two serve processes', () => {
  it(
    'two leads approving and rejecting one request at once, through the two processes: one decision stands, the other is 409',
    { timeout: 180_000 },
    async () => {
      const dbPath = path.join(makeTempDir(), 'timetrack.db');
      bindPostgresDatabase(dbPath, createPostgresDatabase());
      const shell = (args: string[], input?: string) => runCli(['--db', dbPath, ...args], input === undefined ? {} : { input });
      expect((await shell(['migrate'])).exitCode).toBe(0);
      for (const [email, role] of [
        ['lea@example.com', 'lead'],
        ['leo@example.com', 'lead'],
        ['max@example.com', 'member'],
      ]) {
        const created = await shell(['user', 'create', '--email', email!, '--name', email!, '--role', role!, '--password-stdin'], `${PASSWORD}\n`);
        expect(created.stderr).toBe('');
      }
      for (const args of [
        ['team', 'create', 'Kitchen'],
        ['team', 'add', 'Kitchen', 'lea@example.com', '--lead'],
        ['team', 'add', 'Kitchen', 'leo@example.com', '--lead'],
        ['team', 'add', 'Kitchen', 'max@example.com'],
      ]) {
        expect((await shell(args)).exitCode).toBe(0);
      }
      const [a, b] = await Promise.all([startServer(dbPath), startServer(dbPath)]);
      running.push(a, b);
      const signIn = async (server: RunningServer, email: string) =>
        (await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token as string;
      const [lea, leo, max] = [await signIn(a, 'lea@example.com'), await signIn(b, 'leo@example.com'), await signIn(a, 'max@example.com')];

      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const date = DateTime.utc()
          .plus({ days: 10 + round })
          .toISODate()!;
        const asked = await callJson(a, 'POST', '/api/time-entries/absences', { date, type: 'vacation' }, max);
        expect(asked.body.absence.state).toBe('requested');
        const id = asked.body.absence.request_id as number;
        // Every other round the other way round, so that neither process nor decision always starts first.
        const [approve, reject] = await Promise.all(
          round % 2 === 0
            ? [callJson(a, 'POST', `/api/requests/${id}/approve`, { note: 'yes' }, lea), callJson(b, 'POST', `/api/requests/${id}/reject`, { note: 'no' }, leo)]
            : [
                callJson(b, 'POST', `/api/requests/${id}/approve`, { note: 'yes' }, leo),
                callJson(a, 'POST', `/api/requests/${id}/reject`, { note: 'no' }, lea),
              ],
        );
        expect([approve.status, reject.status].sort()).toEqual([200, 409]);
        const [won, lost] = approve.status === 200 ? [approve, reject] : [reject, approve];
        expect(lost.body.code).toBe('ALREADY_DECIDED');
        const state = won.body.request.state as string;
        outcomes.push(state);
        const stored = await queryRows(dbPath, `select state, decision_note from leave_requests where id = ${id}`);
        expect(stored).toEqual([{ state, decision_note: state === 'approved' ? 'yes' : 'no' }]);
        const absences = await queryRows(dbPath, `select state from absences where request_id = ${id}`);
        expect(absences).toEqual(state === 'approved' ? [{ state: 'approved' }] : []);
        const audited = await queryRows(
          dbPath,
          `select count(*)::int as n from audit_events where action = 'leave_request_decided' and detail like '%"request":${id},%'`,
        );
        expect(audited).toEqual([{ n: 1 }]);
      }
      expect(outcomes).toHaveLength(ROUNDS);
    },
  );
});
