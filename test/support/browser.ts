// Debian's Chromium driven by playwright-core, for the browser client's end-to-end tests.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { PROJECT_ROOT } from './cli.js';

export const CHROMIUM = '/usr/bin/chromium';
export const browserAvailable = fs.existsSync(CHROMIUM);
/** CI sets this: there a missing browser fails the suite instead of skipping it. */
export const browserRequired = process.env.TIMETRACK_REQUIRE_BROWSER === '1';
export const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-results', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

/** Everything a context requested, and every CSP violation its pages reported. */
interface RecordedContext {
  context: BrowserContext;
  requests: string[];
  cspViolations: string[];
}

export async function recordedContext(browser: Browser, options: BrowserContextOptions = {}): Promise<RecordedContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'Europe/Berlin', ...options });
  // An action waits for its element up to 30 s: in the PostgreSQL run of a loaded two-core machine a
  // page once went 15 s without an animation frame (Playwright's "stable" check) before a click.
  context.setDefaultTimeout(30_000);
  const requests: string[] = [];
  const cspViolations: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  context.on('page', (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });
  return { context, requests, cspViolations };
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Every axe-core violation on the page as it is now, whatever its impact (the client's goal is none;
 * needs a bypassCSP context). axe-core is added once per document: a second copy of its 500 kB would
 * only be parsed again.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("typeof axe === 'object'"))) await page.addScriptTag({ path: AXE });
  // A string, evaluated in the page: this test program has no DOM types.
  const violations = await page.evaluate<{ id: string; impact: string; help: string; nodes: string[] }[]>(`
    axe.run(document).then((result) => result.violations.map((violation) => ({
      id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => node.target.join(' ')),
    })))`);
  return violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.join(', ')}`);
}
