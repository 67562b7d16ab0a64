// The lock of a closed month across two `serve` processes on one PostgreSQL database (docs/teams.md,
// "Closed months"): an entry written while a lead approves its month never lands in the approved
// month behind the approval. The write and the approval both lock the account's row first, so one
// waits for the other: the entry commits before the approval (and is in the sealed figures) or the
// approval commits first and the entry is refused with MONTH_LOCKED; either way the seal matches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb, kitchenWithLeaAndMax } from '../support/cli-accounts.js';
import { onPostgres } from '../support/database.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const ROUNDS = 8;
const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running.splice(0)) await server.stop();
});

/** The month before this one (UTC), its first day and the first day two months before it. */
const now = new Date();
const MONTH = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
const TRACKING_START = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1)).toISOString().slice(0, 10);

let a: RunningServer;
let b: RunningServer;
const tokens: Record<'X' | 'L' | 'M', string> = { X: '', L: '', M: '' };
let maxId = 0;

beforeAll(async () => {
  if (!onPostgres) return;
  const db = tempDb();
  await createAccountWithCli(db, 'xena@example.com', ['--role', 'admin']);
  await kitchenWithLeaAndMax(db);
  [a, b] = await Promise.all([startServer(db), startServer(db)]);
  running.push(a, b);
  for (const [who, email] of [
    ['X', 'xena@example.com'],
    ['L', 'lea@example.com'],
    ['M', 'max@example.com'],
  ] as const) {
    tokens[who] = (await callJson(who === 'M' ? b : a, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token;
  }
  maxId = (await callJson(a, 'GET', '/api/auth/me', undefined, tokens.M)).body.user.id;
  expect((await callJson(b, 'PATCH', '/api/settings', { tracking_start: TRACKING_START }, tokens.M)).status).toBe(200);
}, 120_000);

describe.skipIf(!onPostgres)('a month approved on one process while an entry is written on the other', () => {
  it(`never takes the entry behind the approval, in either order (${ROUNDS} rounds)`, { timeout: 120_000 }, async () => {
    const outcomes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round > 0) {
        expect((await callJson(a, 'POST', `/api/users/${maxId}/months/${MONTH}/reopen`, { reason: `round ${round}` }, tokens.X)).status).toBe(200);
      }
      expect((await callJson(b, 'POST', `/api/months/${MONTH}/submit`, undefined, tokens.M)).status).toBe(200);
      // The two processes swap parts every round, and which request is sent first.
      const [approving, writing] = round % 2 === 0 ? [a, b] : [b, a];
      const date = `${MONTH}-${String(round + 1).padStart(2, '0')}`;
      const approve = () => callJson(approving, 'POST', `/api/users/${maxId}/months/${MONTH}/approve`, {}, tokens.L);
      const write = () => callJson(writing, 'POST', '/api/time-entries', { start_at: `${date}T08:00:00Z`, end_at: `${date}T09:00:00Z` }, tokens.M);
      const sentFirst = round % 4 < 2 ? await Promise.all([approve(), write()]) : (await Promise.all([write(), approve()])).reverse();
      const [approved, written] = sentFirst as [Awaited<ReturnType<typeof approve>>, Awaited<ReturnType<typeof write>>];
      expect(approved.status).toBe(200);
      expect([201, 409]).toContain(written.status);
      if (written.status === 409) expect(written.body).toMatchObject({ code: 'MONTH_LOCKED', month: MONTH });
      outcomes.push(written.status);
      // The seal is of the figures as they stand: the entry is in them exactly when it was taken.
      expect((await callJson(b, 'GET', `/api/users/${maxId}/months/${MONTH}/verify`, undefined, tokens.L)).body).toMatchObject({ matches: true });
      const sheet = (await callJson(a, 'GET', `/api/stats/month?month=${MONTH}`, undefined, tokens.M)).body;
      const row = sheet.days.find((day: { date: string }) => day.date === date);
      expect(row.worked_minutes).toBe(written.status === 201 ? 60 : 0);
      // A write after the approval is refused, on either process.
      const late = await callJson(approving, 'POST', '/api/time-entries', { start_at: `${date}T10:00:00Z`, end_at: `${date}T11:00:00Z` }, tokens.M);
      expect(late.body).toMatchObject({ code: 'MONTH_LOCKED', month: MONTH });
    }
    expect(outcomes).toHaveLength(ROUNDS);
  });
});
