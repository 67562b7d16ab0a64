// An entry changed on another device while its editor is open (docs/web-client.md, "Fresh on every
// device"; docs/api.md, "Changed meanwhile"): two browser contexts of one account, a phone and a desk,
// in Debian's Chromium against a real `timetrack serve --dev`. The desk's save never writes over the
// phone's change: it says so in words (English and German), shows what the entry holds now, and the
// next save replaces it. Needs `npm run build`.
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { accessibilityViolations, browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

const TIMEOUT = 180_000;
const PASSWORD = 'a quiet morning walk';
const CHANGED_EN = 'This entry was changed on another device; here is what it holds now. Save again to replace it.';
const CHANGED_DE = 'Dieser Eintrag wurde auf einem anderen Gerät geändert; hier steht, was er jetzt enthält. Speichern Sie erneut, um ihn zu ersetzen.';
const DELETE_CHANGED_DE =
  'Dieser Eintrag wurde auf einem anderen Gerät geändert; die Liste zeigt jetzt, was er enthält. Löschen Sie ihn erneut, wenn er weg soll.';

let browser: Browser;
let server: RunningServer;
let counter = 0;

const button = (page: Page, name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });

/** A request of the page's account, as a script on that device would send it; answers the JSON. */
function call(page: Page, method: string, url: string, body?: unknown): Promise<any> {
  return page.evaluate<any>(
    `fetch(${JSON.stringify(url)}, { method: ${JSON.stringify(method)}, headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') }, body: ${JSON.stringify(body === undefined ? undefined : JSON.stringify(body))} }).then(async (response) => response.status === 204 ? null : response.json())`,
  );
}

/** A device signed in to the account of `email` (registered by the first one), on Entries. */
async function device(email: string, locale: string, register: boolean): Promise<Page> {
  // axe-core is injected as a script, which the CSP forbids: these contexts bypass it.
  const { context } = await recordedContext(browser, { bypassCSP: true, locale, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  if (register) {
    const registered = await fetch(`${server.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, full_name: 'Two Devices', timezone: 'Europe/Berlin' }),
    });
    expect(registered.status).toBe(201);
  }
  await page.goto(`${server.baseUrl}/login`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.locator('button.big').waitFor();
  await page.goto(`${server.baseUrl}/#entries`);
  await page.locator('form.entry-form').waitFor();
  return page;
}

/** Today 08:00–09:00 in Berlin (in the shown week whatever the day), made by the desk. */
async function anEntry(desk: Page, note: string): Promise<{ id: number; span: string }> {
  const start = DateTime.now().setZone('Europe/Berlin').set({ hour: 8, minute: 0, second: 0, millisecond: 0 });
  const { entry } = await call(desk, 'POST', '/api/time-entries', { start_at: start.toUTC().toISO(), end_at: start.plus({ hours: 1 }).toUTC().toISO(), note });
  await desk.reload();
  await desk.getByText(note).waitFor();
  return { id: entry.id, span: '08:00–09:00' };
}

async function pair(deskLocale = 'en-GB'): Promise<{ phone: Page; desk: Page }> {
  counter += 1;
  const email = `devices${process.pid}-${counter}@example.com`;
  const desk = await device(email, deskLocale, true);
  const phone = await device(email, 'en-GB', false);
  return { phone, desk };
}

describe.runIf(browserAvailable)('an entry changed on another device while its editor is open', () => {
  beforeAll(async () => {
    server = await startServer(path.join(makeTempDir('timetrack-devices-'), 'timetrack.db'), {}, ['--dev']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    'the desk saves after the phone changed it: the sentence, the fields show the phone’s entry, and the next save replaces it',
    { timeout: TIMEOUT },
    async () => {
      const { phone, desk } = await pair();
      const { id } = await anEntry(desk, 'planning');
      await button(desk, /^Edit entry /).click();
      const editor = desk.locator(`#entry-${id} form.entry-form`);
      await editor.getByLabel('Note', { exact: true }).fill('planning, from the desk');

      // The phone, meanwhile, moves the end and changes the note through its own editor.
      await phone.reload();
      await button(phone, /^Edit entry /).click();
      const phoneEditor = phone.locator(`#entry-${id} form.entry-form`);
      await phoneEditor.getByLabel('End', { exact: true }).fill('10:30');
      await phoneEditor.getByLabel('Note', { exact: true }).fill('planning, from the phone');
      await button(phone, 'Save entry').click();
      await phone.getByText('planning, from the phone').waitFor();

      // The desk's save is refused: the sentence, focused, and the fields hold what the phone saved.
      await button(desk, 'Save entry').click();
      const alert = editor.getByRole('alert');
      await alert.getByText(CHANGED_EN).waitFor();
      await expect.poll(() => desk.evaluate<string | null>('document.activeElement && document.activeElement.textContent')).toContain(CHANGED_EN);
      expect(await editor.getByLabel('Note', { exact: true }).inputValue()).toBe('planning, from the phone');
      expect(await editor.getByLabel('End', { exact: true }).inputValue()).toBe('10:30');
      expect((await call(desk, 'GET', `/api/time-entries/${id}`)).entry.note).toBe('planning, from the phone');
      expect(await accessibilityViolations(desk)).toEqual([]);

      // Saving again replaces it (with what the person types now).
      await editor.getByLabel('Note', { exact: true }).fill('planning, the desk’s word');
      await button(desk, 'Save entry').click();
      await desk.locator(`#entry-${id}`).getByText('planning, the desk’s word').waitFor();
      const stored = (await call(desk, 'GET', `/api/time-entries/${id}`)).entry;
      expect(stored.note).toBe('planning, the desk’s word');
      expect(DateTime.fromISO(stored.end_at).setZone('Europe/Berlin').toFormat('HH:mm')).toBe('10:30');
      await phone.context().close();
      await desk.context().close();
    },
  );

  it('deleted on the phone: the desk’s save says so and the list no longer shows it', { timeout: TIMEOUT }, async () => {
    const { phone, desk } = await pair();
    const { id } = await anEntry(desk, 'short call');
    await button(desk, /^Edit entry /).click();
    await desk.locator(`#entry-${id} form.entry-form`).getByLabel('Note', { exact: true }).fill('short call, longer');
    expect(await call(phone, 'DELETE', `/api/time-entries/${id}`)).toBeNull();
    await button(desk, 'Save entry').click();
    await desk.getByRole('alert').getByText('This entry was deleted on another device. The list now shows what is current.').waitFor();
    await expect.poll(() => desk.locator(`#entry-${id}`).count()).toBe(0);
    await phone.context().close();
    await desk.context().close();
  });

  it('German: the desk’s save and its delete after the phone changed the entry say so in German; the entry stays', { timeout: TIMEOUT }, async () => {
    const { phone, desk } = await pair('de-DE');
    const { id } = await anEntry(desk, 'Abstimmung');
    await button(desk, /^Eintrag .* bearbeiten$/).click();
    const editor = desk.locator(`#entry-${id} form.entry-form`);
    await editor.getByLabel('Notiz', { exact: true }).fill('Abstimmung am Schreibtisch');
    const first = (await call(phone, 'PATCH', `/api/time-entries/${id}`, { note: 'Abstimmung am Telefon' })).entry;
    await button(desk, 'Eintrag speichern').click();
    await editor.getByRole('alert').getByText(CHANGED_DE).waitFor();
    expect(await editor.getByLabel('Notiz', { exact: true }).inputValue()).toBe('Abstimmung am Telefon');
    expect(await accessibilityViolations(desk)).toEqual([]);
    await desk.keyboard.press('Escape');

    // The tab comes back (a focus event): the desk's line shows the phone's change; the phone changes it
    // again between the desk's Delete and its confirmation.
    await expect
      .poll(async () => (await desk.evaluate("dispatchEvent(new Event('focus'))"), desk.locator(`#entry-${id}`).getByText('Abstimmung am Telefon').count()), {
        timeout: 30_000,
      })
      .toBe(1);
    await button(desk, /^Eintrag .* löschen$/).click();
    expect((await call(phone, 'PATCH', `/api/time-entries/${id}`, { note: 'Abstimmung, verschoben' })).entry.updated_at).not.toBe(first.updated_at);
    await button(desk, 'Ja, löschen').click();
    await desk.getByRole('alert').getByText(DELETE_CHANGED_DE).waitFor();
    await desk.locator(`#entry-${id}`).getByText('Abstimmung, verschoben').waitFor();
    expect((await call(desk, 'GET', `/api/time-entries/${id}`)).entry.note).toBe('Abstimmung, verschoben');
    await phone.context().close();
    await desk.context().close();
  });
});
