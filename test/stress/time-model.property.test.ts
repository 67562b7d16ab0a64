// The property test of the time model at length: thousands of random users through the real
// services, against the reference model of test/support/time-model-property.ts.
import { afterAll, beforeAll, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { checkTimeModel, ZONES } from '../support/time-model-property.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it(`week, month, vacation, overtime and today equal the reference model in ${ZONES.length} zones (3000 users)`, async () => {
  await checkTimeModel(t, 3000);
}, 900_000);
