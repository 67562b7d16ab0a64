// `timetrack request list|approve|reject` through the built binary (docs/cli.md; docs/teams.md, "Leave
// requests"): the operator lists every account's requests (--json: the items of GET /api/requests),
// decides one with a note the person then sees, a second decision is exit 1 (ALREADY_DECIDED), an
// unknown request exit 3; each decision is audited with the login at the shell.
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cli, expectFailure, kitchenWithLeaAndMax, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('timetrack request', () => {
  it('lists, approves with a note the person sees, refuses a second decision; audited', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await kitchenWithLeaAndMax(db);
    server = await startServer(db);
    const max = (await callJson(server, 'POST', '/api/auth/login', { email: 'max@example.com', password: PASSWORD })).body.token as string;
    const day = (offset: number) => DateTime.utc().plus({ days: offset }).toISODate()!;
    const asked = async (date: string) =>
      (await callJson(server!, 'POST', '/api/time-entries/absences', { date, type: 'vacation' }, max)).body.absence.request_id as number;
    const first = await asked(day(20));
    const second = await asked(day(21));

    const listed = await cli(db, ['request', 'list', '--state', 'requested', '--json']);
    expect(listed.stderr).toBe('');
    const own = (await callJson(server, 'GET', '/api/requests', undefined, max)).body.requests;
    expect(JSON.parse(String(listed.stdout))).toEqual({ requests: own });
    expect(own.map((r: { id: number }) => r.id)).toEqual([second, first]);

    const approved = await cli(db, ['request', 'approve', String(first), '--note', 'Have fun']);
    expect(approved.exitCode).toBe(0);
    expect(String(approved.stdout)).toMatch(new RegExp(`^${first}\\tapproved\\tmax@example\\.com\\t${day(20)}\\t1 d\\tnote: Have fun\\n`));
    const seen = (await callJson(server, 'GET', '/api/requests?state=approved', undefined, max)).body.requests;
    expect(seen).toEqual([expect.objectContaining({ id: first, state: 'approved', note: 'Have fun', decided_by: null })]);
    const absences = (await callJson(server, 'GET', `/api/time-entries/absences?from=${day(20)}&to=${day(21)}`, undefined, max)).body.absences;
    expect(absences).toEqual([expect.objectContaining({ state: 'approved', decision_note: 'Have fun' })]);

    expectFailure(await cli(db, ['request', 'reject', String(first)]), 1, /is approved/);
    expectFailure(await cliInProcess(db, ['request', 'approve', '999999']), 3, /No such leave request/);
    expectFailure(await cliInProcess(db, ['request', 'list', '--state', 'pending']), 2, /one of requested, approved/);
    expect((await cliInProcess(db, ['request', 'reject', String(second)])).exitCode).toBe(0);
    const text = String((await cliInProcess(db, ['request', 'list', '--account', 'max@example.com'])).stdout);
    expect(text.split('\n').filter((line) => /^[0-9]/.test(line))).toEqual([
      expect.stringMatching(`^${second}\\trejected\\t`),
      expect.stringMatching(`^${first}\\tapproved\\t`),
    ]);
    expect(String((await cliInProcess(db, ['request', 'list', '--account', 'lea@example.com'])).stdout)).toMatch(/^no leave requests\n/);

    const audit = JSON.parse(String((await cliInProcess(db, ['audit', 'list', '--user', 'max@example.com', '--json'])).stdout));
    const decisions = audit.events.filter((e: { action: string }) => e.action === 'leave_request_decided');
    expect(decisions.map((e: { actor: string; detail: { decision: string } }) => [e.actor.split(':')[0], e.detail.decision])).toEqual([
      ['os', 'reject'],
      ['os', 'approve'],
    ]);
  });
});
