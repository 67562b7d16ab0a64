// Leave requests against a reference model (test/teams/requests-model.ts): random bookings, approvals,
// rejections, withdrawals, cancellations and changes of the team's setting keep the vacation year
// (taken, requested, remaining) and the overtime balance equal to the model's. Many runs through an
// in-process app; a few through one real `serve`.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { onPostgres } from '../support/database.js';
import { request, type Method } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';
import { checkRequests, opsArb, type Call, type World } from './requests-model.js';

const perYearArb = fc.constantFrom(2, 5, 10, 20);

async function makeWorld(call: Call, today: string, admin: string): Promise<World> {
  const email = `lead-${Date.now()}@example.com`;
  const registered = await call('POST', '/api/auth/register', { email, password: PASSWORD, full_name: 'Lead' }, undefined);
  const id = registered.json().user.id as number;
  const promoted = await call('PATCH', `/api/users/${id}`, { role: 'lead' }, admin);
  if (promoted.statusCode !== 200) throw new Error(`lead: ${promoted.statusCode} ${promoted.body}`);
  const token = (await call('POST', '/api/auth/login', { email, password: PASSWORD }, undefined)).json().token as string;
  let counter = 0;
  return { call, today, admin, lead: { id, token }, unique: () => ++counter };
}

describe('leave requests against the model, in process', () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await createTestApp(); // the clock: Monday 2026-03-02, 09:00 UTC
    const call: Call = (method, url, body, token) => request(t.app, method as Method, url, { payload: body, ...(token ? { token } : {}) });
    const email = 'admin@example.com';
    const { user } = (await call('POST', '/api/auth/register', { email, password: PASSWORD, full_name: 'Admin' }, undefined)).json();
    await t.ctx.services.people.setRole(user.id, 'admin');
    const admin = (await call('POST', '/api/auth/login', { email, password: PASSWORD }, undefined)).json().token as string;
    world = await makeWorld(call, '2026-03-02', admin);
  });
  afterAll(async () => {
    await t.close();
  });

  it('the vacation year and the balance equal the model after every step', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(perYearArb, opsArb, (perYear, ops) => checkRequests(world, perYear, ops)),
      { numRuns: onPostgres ? 15 : 40 },
    );
  });
});

describe('leave requests against the model, through serve', () => {
  let server: RunningServer;
  let world: World;
  beforeAll(async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'admin@example.com', ['--role', 'admin']);
    server = await startServer(db);
    const call: Call = (method, url, body, token) => request(server, method as Method, url, { payload: body, ...(token ? { token } : {}) });
    const admin = (await call('POST', '/api/auth/login', { email: 'admin@example.com', password: PASSWORD }, undefined)).json().token as string;
    world = await makeWorld(call, new Date().toISOString().slice(0, 10), admin);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('a few runs agree too', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(perYearArb, opsArb, (perYear, ops) => checkRequests(world, perYear, ops)),
      { numRuns: 3 },
    );
  });
});
