// A few hundred random users through the real services, against the reference model of
// test/support/time-model-property.ts (the stress suite runs many more).
import { afterAll, beforeAll, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { checkTimeModel, runScenario, ZONES, type Scenario } from '../support/time-model-property.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it(`week, month, vacation, overtime and today equal the reference model in ${ZONES.length} zones`, async () => {
  // Each write is a round trip to a server on PostgreSQL, not a call into the process: fewer users there
  // (the stress suite runs thousands), and more time.
  // Each user is read back through the API: every week, month sheet and vacation, and a few PDFs.
  await checkTimeModel(t, onPostgres ? 100 : 200);
}, 600_000);

// A timer started this very instant (found by the property above: the reference had no piece for it).
// The day has begun: its first start shows, its last end is open, and a break before it counts.
const HOUR_MS = 3_600_000;
const startedNow: Scenario = {
  zone: 'UTC',
  onTransition: false,
  transitionPick: 0,
  randomDay: 0,
  anchorShift: 0,
  targets: [0, 0, 0, 480, 480, 480, 0],
  trackingShift: 0,
  offset: 0,
  pieces: [],
  running: 12,
  nowAfter: 0,
  absences: [],
  edits: [{ kind: 'move', index: 0, shift: 12, stretch: 0 }],
  readFirst: false,
  schedules: [],
  bookings: [],
  rules: undefined,
  minBreak: 15,
  timerLimit: null,
  vacationPerYear: null,
  takenBefore: null,
  carryCap: null,
};
const afterWork = (gapMinutes: number): Scenario => ({
  ...startedNow,
  anchorShift: 8 * HOUR_MS,
  pieces: [{ gap: 0, length: HOUR_MS }],
  nowAfter: gapMinutes * 60_000,
  edits: [{ kind: 'move', index: 1, shift: 12, stretch: 0 }],
});
it.each([
  ['alone on its day', startedNow],
  ['20 minutes after an hour of work (a break)', afterWork(20)],
  ['5 minutes after an hour of work (too short for a break)', afterWork(5)],
])('a timer started this instant, %s, equals the reference model', async (_name, scenario) => {
  await runScenario(t, scenario);
});
