// A leave request's decision notices against a real `serve`, on both engines (docs/notices.md, "What is
// sent, when, to whom"): every decision tells the person once, and a cancellation asked for and refused
// twice tells it twice, because the key of a decision holds its time as well as the two states (the
// second refusal goes from the same state to the same state as the first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { kitchenWithLeaAndMax, tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

let server: RunningServer;
let lea: string; // lead of Kitchen, which requires approval (a team's default)
let max: string; // member of Kitchen

async function must(method: string, url: string, token: string, body?: unknown, status = 200): Promise<any> {
  const answer = await callJson(server, method, url, body, token);
  expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

async function signIn(email: string): Promise<string> {
  const answer = await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

/** A Wednesday three weeks from today (UTC): a working day, in a month nobody has closed. */
function wednesdayAhead(): string {
  const day = new Date(Date.now() + 21 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((3 - day.getUTCDay() + 7) % 7));
  return day.toISOString().slice(0, 10);
}

beforeAll(async () => {
  const db = tempDb();
  await kitchenWithLeaAndMax(db);
  server = await startServer(db);
  [lea, max] = [await signIn('lea@example.com'), await signIn('max@example.com')];
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('the notices of a leave request', () => {
  it('a cancellation refused twice: two request-decided notices, one per refusal', async () => {
    const date = wednesdayAhead();
    const asked = await must('POST', '/api/time-entries/absences', max, { date, type: 'vacation' }, 201);
    expect(asked.absence).toMatchObject({ state: 'requested' });
    const id = asked.absence.request_id as number;
    expect((await must('POST', `/api/requests/${id}/approve`, lea, {})).request).toMatchObject({ state: 'approved' });
    for (const note of ['Busy that week', 'Still busy']) {
      expect((await must('POST', `/api/requests/${id}/cancel`, max)).request).toMatchObject({ state: 'cancel_requested' });
      expect((await must('POST', `/api/requests/${id}/reject`, lea, { note })).request).toMatchObject({ state: 'approved', note });
    }

    const { notices } = await must('GET', '/api/notices', max);
    const decided = notices.filter((notice: { kind: string }) => notice.kind === 'request-decided');
    // Newest first: the second refusal, the first, the approval.
    expect(decided.map((notice: { data: object }) => notice.data)).toEqual([
      { request: id, approved: false, cancellation: true, from: date, to: date, note: 'Still busy' },
      { request: id, approved: false, cancellation: true, from: date, to: date, note: 'Busy that week' },
      { request: id, approved: true, cancellation: false, from: date, to: date, note: null },
    ]);
    expect(decided.every((notice: { read_at: string | null }) => notice.read_at === null)).toBe(true);
    // The lead hears of none of it: the notices are the person's.
    expect((await must('GET', '/api/notices', lea)).notices.filter((notice: { kind: string }) => notice.kind === 'request-decided')).toEqual([]);
  });
});
