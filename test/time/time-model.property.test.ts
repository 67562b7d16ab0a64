// A few hundred random users through the real services, against the reference model of
// test/support/time-model-property.ts (the stress suite runs many more).
import { afterAll, beforeAll, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import { checkTimeModel, ZONES } from '../support/time-model-property.js';

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
