// A reference model of leave requests (docs/teams.md, "Leave requests"; docs/time-model.md, "Vacation
// allowance") for the property test: random bookings (vacation and sick days, single days and ranges,
// whole and half), approvals, rejections, withdrawals, cancellations and changes of the team's setting
// go through the API of an in-process app or of a real `serve`; after each step the vacation year
// (taken, planned, requested, remaining) and the overtime balance must equal what the model counts, and
// at the end every absence's state. The model shares no code with src/: targets are 480 minutes Monday
// to Friday in UTC, without public holidays.
import fc from 'fast-check';
import { expect } from 'vitest';
import { PASSWORD } from '../support/app.js';
import type { Method, TestResponse } from '../support/requests.js';

/** One request to the API under test, with a bearer token (PUT too: a team's members). */
export type Call = (method: Method | 'PUT', url: string, body: unknown, token: string | undefined) => Promise<TestResponse>;

type Step = 'approve' | 'reject' | 'withdraw' | 'cancel';
type State = 'requested' | 'approved' | 'rejected' | 'withdrawn' | 'cancel_requested' | 'cancelled';

export type Op =
  | { kind: 'book'; type: 'vacation' | 'sick'; offset: number; length: number; half: boolean }
  | { kind: Step; pick: number }
  | { kind: 'setting'; required: boolean };

const offsetArb = fc.oneof(fc.integer({ min: -25, max: -1 }), fc.integer({ min: 1, max: 25 }));
export const opsArb: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('book' as const),
        type: fc.constantFrom('vacation' as const, 'vacation' as const, 'sick' as const),
        offset: offsetArb,
        length: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 })),
        half: fc.boolean(),
      }),
    },
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const, 'withdraw' as const, 'cancel' as const), pick: fc.nat() }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('setting' as const), required: fc.boolean() }) },
  ),
  { minLength: 1, maxLength: 14 },
);

const NEXT: Record<Step, Partial<Record<State, State>>> = {
  approve: { requested: 'approved', cancel_requested: 'cancelled' },
  reject: { requested: 'rejected', cancel_requested: 'approved' },
  withdraw: { requested: 'withdrawn' },
  cancel: { approved: 'cancel_requested' },
};

const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const isWeekday = (date: string) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());

interface ModelAbsence {
  type: 'vacation' | 'sick';
  half: boolean;
  /** The leave request it belongs to; none: booked at once. */
  request?: { id: number; state: State };
}

/** The people and the team a run needs, made through the API as the admin. */
export interface World {
  call: Call;
  today: string;
  admin: string;
  lead: { id: number; token: string };
  unique: () => number;
}

async function must(response: Promise<TestResponse>, status: number): Promise<any> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.body ? answer.json() : undefined;
}

/** A new person in a new team (lead: the world's lead), with explicit settings; their token and the team's id. */
async function newPerson(world: World, perYear: number): Promise<{ token: string; team: number }> {
  const { call, admin } = world;
  const email = `p${world.unique()}-${Date.now()}@example.com`;
  const { user } = await must(call('POST', '/api/auth/register', { email, password: PASSWORD, full_name: 'Person' }, undefined), 201);
  const { token } = await must(call('POST', '/api/auth/login', { email, password: PASSWORD }, undefined), 200);
  const start = plusDays(world.today, -60);
  const settings = {
    timezone: 'UTC',
    timezone_valid_from: start,
    tracking_start: start,
    weekly_target_minutes: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 },
    targets_valid_from: start,
    vacation_days_per_year: perYear,
    vacation_carry_over_max_days: 0,
  };
  await must(call('PATCH', '/api/settings', settings, token), 200);
  const { team } = await must(call('POST', '/api/teams', { name: `Team ${email}` }, admin), 201);
  await must(call('PUT', `/api/teams/${team.id}/members/${world.lead.id}`, { role: 'lead' }, admin), 200);
  await must(call('PUT', `/api/teams/${team.id}/members/${user.id}`, { role: 'member' }, admin), 200);
  return { token, team: team.id };
}

/** Runs `ops` for a new person against the model; fails the test at the first difference. */
export async function checkRequests(world: World, perYear: number, ops: Op[]): Promise<void> {
  const { call, today } = world;
  const year = today.slice(0, 4);
  const { token, team } = await newPerson(world, perYear);
  const base = {
    vacation: await must(call('GET', `/api/stats/vacation?year=${year}`, undefined, token), 200),
    balance: (await must(call('GET', '/api/stats/overtime', undefined, token), 200)).balance_minutes as number,
  };
  const absences = new Map<string, ModelAbsence>();
  const requests: Array<{ id: number; state: State }> = [];
  let required = true;

  const expected = () => {
    const halves = { taken: 0, planned: 0, requested: 0 };
    let balance = base.balance;
    for (const [date, absence] of absences) {
      if (!isWeekday(date)) continue;
      const counts = absence.request?.state !== 'requested';
      if (absence.type === 'vacation') halves[!counts ? 'requested' : date <= today ? 'taken' : 'planned'] += absence.half ? 1 : 2;
      if (counts && date < today) balance += absence.half ? 240 : 480;
    }
    const used = (halves.taken + halves.planned + halves.requested) / 2;
    const remaining = base.vacation.allowance_days + base.vacation.carried_over_days - used;
    return { taken_days: halves.taken / 2, planned_days: halves.planned / 2, requested_days: halves.requested / 2, remaining_days: remaining, balance };
  };

  for (const op of ops) {
    if (op.kind === 'setting') {
      await must(call('PATCH', `/api/teams/${team}`, { absence_approval: op.required ? 'required' : 'none' }, world.admin), 200);
      required = op.required;
    } else if (op.kind === 'book') {
      const from = plusDays(today, op.offset);
      const last = plusDays(from, Math.max(op.length - 1, 0));
      if (from.slice(0, 4) !== year || last.slice(0, 4) !== year || (from <= today && today <= last)) continue;
      const dates = op.length === 0 ? [from] : Array.from({ length: op.length }, (_, i) => plusDays(from, i)).filter(isWeekday);
      const body = { type: op.type, ...(op.half ? { portion: 'half' } : {}), ...(op.length === 0 ? { date: from } : { from, to: last }) };
      const answer = await call('POST', '/api/time-entries/absences', body, token);
      if (dates.length === 0) {
        expect(answer.statusCode, answer.body).toBe(400);
        continue;
      }
      if (dates.some((date) => absences.has(date))) {
        expect(answer.statusCode, answer.body).toBe(409);
        continue;
      }
      expect(answer.statusCode, answer.body).toBe(201);
      const made = answer.json().absences ?? [answer.json().absence];
      const waits = op.type === 'vacation' && required;
      for (const absence of made) expect(absence.state).toBe(waits ? 'requested' : 'booked');
      const request = waits ? { id: made[0].request_id as number, state: 'requested' as State } : undefined;
      if (request) requests.push(request);
      for (const date of dates) absences.set(date, { type: op.type, half: op.half, ...(request ? { request } : {}) });
    } else {
      const request = requests[op.pick % Math.max(requests.length, 1)];
      if (!request) continue;
      const actor = op.kind === 'approve' || op.kind === 'reject' ? world.lead.token : token;
      const answer = await call('POST', `/api/requests/${request.id}/${op.kind}`, {}, actor);
      const next = NEXT[op.kind][request.state];
      if (next === undefined) {
        expect({ status: answer.statusCode, code: answer.json().code }).toEqual({ status: 409, code: 'ALREADY_DECIDED' });
        continue;
      }
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().request.state).toBe(next);
      request.state = next;
      if (['rejected', 'withdrawn', 'cancelled'].includes(next)) {
        for (const [date, absence] of absences) if (absence.request === request) absences.delete(date);
      }
    }
    const vacation = await must(call('GET', `/api/stats/vacation?year=${year}`, undefined, token), 200);
    const balance = (await must(call('GET', '/api/stats/overtime', undefined, token), 200)).balance_minutes;
    const { balance: expectedBalance, ...expectedVacation } = expected();
    expect({ ...pick(vacation, Object.keys(expectedVacation)), balance }, JSON.stringify(op)).toEqual({ ...expectedVacation, balance: expectedBalance });
  }
  const listed = (await must(call('GET', `/api/time-entries/absences?from=${year}-01-01&to=${Number(year) + 1}-01-01`, undefined, token), 200)).absences;
  const states = Object.fromEntries(listed.map((a: { date: string; state: string }) => [a.date, a.state]));
  const modelStates = Object.fromEntries([...absences].map(([date, absence]) => [date, absence.request?.state ?? 'booked']));
  expect(states).toEqual(modelStates);
}

function pick(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
}
