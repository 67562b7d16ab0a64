// `timetrack month status|submit|approve|return|reopen` through the built binary (docs/cli.md,
// docs/teams.md "Closed months"): the operator works a person's month through the same service as
// the API, each change audited with the operator's login; the refusals are one line with exit 1.
import { describe, expect, it } from 'vitest';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';

/** The month before this one (UTC): over, so it can be submitted. */
function previousMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

describe('timetrack month', () => {
  it('submits, returns, approves (sealed), reopens with a reason, and says where a month stands', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'max@example.com');
    const month = previousMonth();
    const thisMonth = new Date().toISOString().slice(0, 7);
    const run = (args: string[]) => cliInProcess(db, ['month', ...args]);

    expect(String((await cli(db, ['month', 'status', 'max@example.com', month])).stdout)).toContain(`max@example.com ${month}: open`);
    expectFailure(await run(['submit', 'max@example.com', thisMonth]), 1, /has not ended yet/);
    expect((await run(['submit', 'max@example.com', month])).exitCode).toBe(0);
    expectFailure(await run(['approve', 'max@example.com', '2026-13']), 1, /YYYY-MM/);
    expect((await run(['return', 'max@example.com', month])).exitCode).not.toBe(0);
    expect(String((await run(['return', 'max@example.com', month, '--comment', 'the 12th is missing'])).stdout)).toContain(': returned');
    expectFailure(await run(['approve', 'max@example.com', month]), 1, /is returned/);
    expect((await run(['submit', 'max@example.com', month])).exitCode).toBe(0);

    const approved = await cli(db, ['month', 'approve', 'max@example.com', month, '--json']);
    expect(approved.exitCode).toBe(0);
    const answer = JSON.parse(String(approved.stdout));
    expect(answer.month).toMatchObject({ month, state: 'approved', decided_by: null });
    expect(answer.month.digest).toMatch(/^[0-9a-f]{64}$/);

    expect((await run(['reopen', 'max@example.com', month])).exitCode).not.toBe(0);
    expect(String((await run(['reopen', 'max@example.com', month, '--reason', 'a sick day was booked as vacation'])).stdout)).toContain(': open');
    const trail = JSON.parse(String((await cliInProcess(db, ['audit', 'list', '--user', 'max@example.com', '--json'])).stdout));
    const events = (trail.events ?? trail) as Array<{ action: string; actor: string; detail: Record<string, unknown> }>;
    expect(events.map((event) => event.action)).toEqual(expect.arrayContaining(['month_submitted', 'month_returned', 'month_approved', 'month_reopened']));
    const reopened = events.find((event) => event.action === 'month_reopened')!;
    expect(reopened.actor).toMatch(/^os:/);
    expect(reopened.detail).toMatchObject({ month, reason: 'a sick day was booked as vacation', digest: answer.month.digest });
  });
});
