// The browser client never loses data in one click, asks before saving what looks like a slip, and
// stays fresh on every device (docs/web-client.md: Undo or confirmation, Plausibility, Fresh on every
// device). Debian's Chromium against a real `timetrack serve --dev`; needs `npm run build`. Screenshots
// of each new question and undo go to the screenshots folder of the test results, at 390 and 1280 px,
// and axe-core finds nothing on them.
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { accessibilityViolations, browserAvailable, launchBrowser, recordedContext, SCREENSHOTS } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

const TIMEOUT = 240_000;
const PASSWORD = 'a quiet morning walk';
const SHOTS = process.env.TIMETRACK_SCREENSHOTS ?? SCREENSHOTS;

let browser: Browser;
let server: RunningServer;
let counter = 0;

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const berlin = () => DateTime.now().setZone('Europe/Berlin');

async function register(page: Page): Promise<string> {
  counter += 1;
  const email = `guard${process.pid}-${counter}@example.com`;
  await page.goto(`${server.baseUrl}/register`);
  await field(page, 'Full name').fill(`Guard ${counter}`);
  await field(page, 'E-mail').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await button(page, 'Create account').click();
  await button(page, 'Start').waitFor();
  return email;
}

async function openTab(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, exact: true, level: 2 }).waitFor();
}

/** A request of the signed-in page's account, as a script would send it; answers the status. */
function call(page: Page, method: string, url: string, body?: unknown): Promise<number> {
  return page.evaluate<number>(
    `fetch(${JSON.stringify(url)}, { method: ${JSON.stringify(method)}, headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') }, body: ${JSON.stringify(body === undefined ? undefined : JSON.stringify(body))} }).then((response) => response.status)`,
  );
}

/** Screenshots at 390 and 1280 px (first both, so that a passing undo is still on them), then axe-core at both. */
async function look(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(SHOTS, `guard-${name}-${width}.png`), fullPage: true });
  }
  const findings: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    for (const finding of await accessibilityViolations(page)) findings.push(`${name} at ${width}: ${finding}`);
  }
  expect(findings).toEqual([]);
}

async function newPage(): Promise<Page> {
  // axe-core is injected as a script, which the CSP forbids: these contexts bypass it.
  const { context } = await recordedContext(browser, { bypassCSP: true });
  return context.newPage();
}

describe.runIf(browserAvailable)('guards of the browser client', () => {
  beforeAll(async () => {
    server = await startServer(path.join(makeTempDir('timetrack-guards-'), 'timetrack.db'), {}, ['--dev']);
    browser = await launchBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('absences: three days booked one by one are three rows, Remove takes one (with Undo); a range asks first', { timeout: TIMEOUT }, async () => {
    const page = await newPage();
    await register(page);
    const monday = berlin().startOf('week').plus({ weeks: 1 });
    const day = (days: number) => monday.plus({ days }).toISODate() as string;
    for (const days of [0, 1, 2]) expect(await call(page, 'POST', '/api/time-entries/absences', { date: day(days), type: 'vacation' })).toBe(201);
    expect(await call(page, 'POST', '/api/time-entries/absences', { from: day(7), to: day(9), type: 'vacation' })).toBe(201);
    await openTab(page, 'Absences');
    const rows = page.locator('ul.absences > li');
    await expect.poll(() => rows.count()).toBe(4);

    // One day: removed at once, the others stay; Undo (focused) books it again.
    await page.getByRole('button', { name: `Remove Vacation on ${day(1)}` }).click();
    await expect.poll(() => rows.count()).toBe(3);
    await page.locator('.undo-bar').getByText('Absence removed.').waitFor();
    await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Undo');
    await look(page, 'absence-undo');
    await page.locator('.undo-bar').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => rows.count()).toBe(4);
    await page.getByRole('button', { name: `Remove Vacation on ${day(1)}` }).waitFor();

    // A range: the question first, in place of the button; Keep it (and Escape) keep it.
    const rangeRemove = page.getByRole('button', { name: `Remove Vacation from ${day(7)} to ${day(9)}` });
    await rangeRemove.click();
    await page.getByText('Remove all 3 days of this booking?').waitFor();
    await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Keep it');
    await look(page, 'absence-range-question');
    await page.keyboard.press('Escape');
    await rangeRemove.waitFor();
    expect(await rows.count()).toBe(4);
    await rangeRemove.click();
    await button(page, 'Yes, remove').click();
    await expect.poll(() => rows.count()).toBe(3);
    for (const days of [0, 1, 2]) await page.getByRole('button', { name: `Remove Vacation on ${day(days)}` }).waitFor();
    await page.context().close();
  });

  it('entries: "45" asks minutes or hours, 9:00–5:00 asks about overnight and the length, Delete asks', { timeout: TIMEOUT }, async () => {
    const page = await newPage();
    await register(page);
    await openTab(page, 'Entries');
    const twoDaysAgo = berlin().minus({ days: 2 }).toISODate() as string;
    await field(page, 'Date').fill(twoDaysAgo);
    await field(page, 'Start').fill('13:00');
    await field(page, 'Duration').fill('45');
    await button(page, 'Add entry').click();
    await page.getByText('Did you mean 45 minutes or 45 hours?').waitFor();
    await look(page, 'entry-minutes-or-hours');
    // Back to the field, focused; nothing was saved.
    await button(page, 'No, change it').click();
    await expect.poll(() => page.evaluate<string>('document.activeElement.name')).toBe('duration');
    expect(await page.getByText('Did you mean').count()).toBe(0);
    await button(page, 'Add entry').click();
    await button(page, '45 minutes').click();
    await page.getByText('(0:45)').waitFor();
    // Focus lands on the result, the new entry's line, not on the page (the question's buttons are gone).
    await expect.poll(() => page.evaluate<string>('document.activeElement.id')).toMatch(/^entry-\d+$/);

    // 9:00–5:00: overnight, then longer than 12 hours; each asked once.
    await field(page, 'Date').fill(twoDaysAgo);
    await field(page, 'Start').fill('21:00');
    await field(page, 'End').fill('05:00');
    await button(page, 'Add entry').click();
    await page.getByText(/is before the start .*: the entry would run overnight into the next day/).waitFor();
    await look(page, 'entry-overnight');
    await button(page, 'Yes, save it').click();
    // Shown on both days, each with its piece (Entries splits at local midnight, as Week counts).
    await page.getByText('(3:00)').waitFor();
    await page.getByText('(5:00)').waitFor();
    await field(page, 'Date').fill(twoDaysAgo);
    await field(page, 'Start').fill('09:00');
    await field(page, 'End').fill('05:00');
    await button(page, 'Add entry').click();
    await button(page, 'Yes, save it').click();
    await page.getByText(/lasts .*, more than 12 hours/).waitFor();
    // Going back focuses the end.
    await button(page, 'No, change it').click();
    await expect.poll(() => page.evaluate<string>('document.activeElement.name')).toBe('end_at');

    // Delete asks; Keep it keeps.
    const entries = page.locator('section.day li');
    const before = await entries.count();
    await page
      .getByRole('button', { name: /^Delete entry / })
      .first()
      .click();
    await page.getByText('Delete this entry?').waitFor();
    await button(page, 'Keep it').click();
    expect(await entries.count()).toBe(before);
    await page
      .getByRole('button', { name: /^Delete entry / })
      .first()
      .click();
    await button(page, 'Yes, delete').click();
    await expect.poll(() => entries.count()).toBe(before - 1);
    await page.context().close();
  });

  it('settings: a booking is removed with Undo, a schedule and a token only after a question', { timeout: TIMEOUT }, async () => {
    const page = await newPage();
    await register(page);
    const nextMonday = berlin().startOf('week').plus({ weeks: 1 }).toISODate() as string;
    expect(await call(page, 'POST', '/api/settings/schedules', { valid_from: nextMonday, weekly_target_minutes: { mon: 360 } })).toBe(201);
    expect(await call(page, 'POST', '/api/auth/api-tokens', { name: 'backup script', expires_in_days: 30, password: PASSWORD })).toBe(201);
    await openTab(page, 'Settings');
    await field(page, 'Hours (h:mm, negative to take off)').fill('1:30');
    await button(page, 'Add booking').click();
    await page.getByText(/Payout -1:30/).waitFor();
    await page.getByRole('button', { name: /^Remove the booking of / }).click();
    await page.getByText('No bookings yet.').waitFor();
    await page.locator('.undo-bar').getByText('Booking removed.').waitFor();
    await look(page, 'booking-undo');
    await page.locator('.undo-bar').getByRole('button', { name: 'Undo' }).click();
    await page.getByText(/Payout -1:30/).waitFor();

    const scheduleRemove = page.getByRole('button', { name: `Remove the schedule from ${nextMonday}` });
    await scheduleRemove.click();
    await page.getByText(/^Remove this schedule\?/).waitFor();
    await look(page, 'schedule-question');
    await button(page, 'Keep it').click();
    await expect.poll(() => page.getByText(/^From .* a week$/).count()).toBe(2);
    await scheduleRemove.click();
    await button(page, 'Yes, remove').click();
    await expect.poll(() => page.getByText(/^From .* a week$/).count()).toBe(1);

    await page.getByRole('button', { name: 'Revoke the token backup script' }).click();
    await page.getByText('Scripts that use it stop working at once.', { exact: false }).waitFor();
    await button(page, 'Keep it').click();
    await page.getByRole('button', { name: 'Revoke the token backup script' }).waitFor();
    await page.context().close();
  });

  it('an undo stays while its Undo has focus or the pointer, and goes 10 s after they leave', { timeout: TIMEOUT }, async () => {
    const page = await newPage();
    // The page's clock (time flows as usual) so that the 10 s can be skipped at a chosen moment.
    await page.clock.install();
    await register(page);
    await openTab(page, 'Settings');
    for (const hours of ['1:30', '2:00']) {
      await field(page, 'Hours (h:mm, negative to take off)').fill(hours);
      await button(page, 'Add booking').click();
      await page.getByText(`Payout -${hours}`).waitFor();
    }
    const bar = page.locator('.undo-bar');
    const offered = () => bar.getByRole('button', { name: 'Undo' }).count();
    const away = async () => {
      await page.mouse.move(0, 0);
      await field(page, 'Hours (h:mm, negative to take off)').focus();
    };

    // Focus: the Undo is focused after the removal and stays offered while it is.
    await page.mouse.move(0, 0);
    await page
      .getByRole('button', { name: /^Remove the booking of / })
      .first()
      .click();
    await bar.getByText('Booking removed.').waitFor();
    await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Undo');
    await page.clock.fastForward('00:30');
    expect(await offered()).toBe(1);
    await away();
    await page.clock.fastForward('00:09');
    expect(await offered()).toBe(1);
    await page.clock.fastForward('00:02');
    await expect.poll(offered).toBe(0);

    // The pointer: the same while it rests on the line.
    await page.getByRole('button', { name: /^Remove the booking of / }).click();
    await bar.getByText('Booking removed.').waitFor();
    await away();
    await bar.hover();
    await page.clock.fastForward('00:30');
    expect(await offered()).toBe(1);
    await page.mouse.move(0, 0);
    await page.clock.fastForward('00:11');
    await expect.poll(offered).toBe(0);
    await page.getByText('No bookings yet.').waitFor();
    await page.context().close();
  });

  it('two devices: a timer stopped on one shows stopped on the other after focus, and a stale Stop says so in words', { timeout: TIMEOUT }, async () => {
    const phone = await newPage();
    const email = await register(phone);
    const desk = await newPage();
    await desk.goto(`${server.baseUrl}/login`);
    await field(desk, 'E-mail or username').fill(email);
    await field(desk, 'Password').fill(PASSWORD);
    await button(desk, 'Sign in').click();
    await button(desk, 'Start').waitFor();
    // The tab comes back: a focus event (Playwright's pages are all "visible").
    const focus = (page: Page) => page.evaluate("dispatchEvent(new Event('focus'))");

    await button(phone, 'Start').click();
    await button(phone, 'Stop').waitFor();
    await expect.poll(async () => (await focus(desk), button(desk, 'Stop').count()), { timeout: 30_000 }).toBe(1);
    await button(phone, 'Stop').click();
    await button(phone, 'Start').waitFor();
    // The desk has not looked again yet: its Stop meets a timer already stopped, says so, and shows Start.
    await button(desk, 'Stop').click();
    await desk.getByRole('alert').getByText('The timer was already stopped on another device. This page now shows what is current.').waitFor();
    await button(desk, 'Start').waitFor();
    await look(desk, 'stopped-elsewhere');

    // And after focus alone, the other device shows it stopped.
    await button(phone, 'Start').click();
    await button(phone, 'Stop').waitFor();
    await expect.poll(async () => (await focus(desk), button(desk, 'Stop').count()), { timeout: 30_000 }).toBe(1);
    await button(phone, 'Stop').click();
    await expect.poll(async () => (await focus(desk), button(desk, 'Start').count()), { timeout: 30_000 }).toBe(1);
    await phone.context().close();
    await desk.context().close();
  });

  it(
    'today: an entry planned for tomorrow does not block Start; a timer far past the target warns; the limit is offered once',
    { timeout: TIMEOUT },
    async () => {
      const page = await newPage();
      await register(page);
      const tomorrow = berlin().plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0, millisecond: 0 });
      expect(await call(page, 'POST', '/api/time-entries', { start_at: tomorrow.toUTC().toISO(), end_at: tomorrow.plus({ hours: 1 }).toUTC().toISO() })).toBe(
        201,
      );
      await button(page, 'Start').click();
      await button(page, 'Stop').waitFor();
      await button(page, 'Stop').click();
      await button(page, 'Start').waitFor();

      // An account from before the limit was on by default, with a timer running 13 hours (target 8).
      expect(await call(page, 'PATCH', '/api/settings', { timer_limit_minutes: null, suggest_timer_limit: true })).toBe(200);
      const today = berlin();
      const weekday = today.weekday <= 5;
      if (!weekday) expect(await call(page, 'PATCH', '/api/settings', { weekly_target_minutes: { [today.toFormat('ccc').toLowerCase()]: 480 } })).toBe(200);
      const entries = await page.evaluate<{ id: number }[]>(
        `fetch('/api/time-entries?from=${today.minus({ days: 1 }).toISODate()}', { headers: { Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') } }).then((r) => r.json()).then((body) => body.entries)`,
      );
      for (const entry of entries) if (entry.id) await call(page, 'DELETE', `/api/time-entries/${entry.id}`);
      expect(await call(page, 'POST', '/api/time-entries', { start_at: DateTime.utc().minus({ hours: 13 }).toISO() })).toBe(201);
      await page.reload();
      await page.getByText(/The timer has been running for .*, more than 4 hours past today’s target/).waitFor();
      await expect.poll(() => page.title()).toMatch(/^⚠ Still running\? /);
      await page.getByText('Stop a forgotten timer by itself after 12 hours?', { exact: false }).waitFor();
      await look(page, 'today-warning-and-offer');
      await button(page, 'No, thanks').click();
      await expect.poll(() => page.getByText('Stop a forgotten timer by itself', { exact: false }).count()).toBe(0);
      await page.reload();
      await button(page, 'Stop').waitFor();
      expect(await page.getByText('Stop a forgotten timer by itself', { exact: false }).count()).toBe(0);
      await page.context().close();
    },
  );
});
