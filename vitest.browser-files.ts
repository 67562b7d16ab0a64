// Which test files are the browser suite: those that drive Chromium through test/support/browser.ts.
// vitest.config.ts leaves them out of the default suite and vitest.browser.config.ts runs only them,
// so a new browser file lands in the browser suite by its import alone (docs/testing.md, "What runs where").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** The test files (paths from the project root) that import test/support/browser.ts. */
export function browserTestFiles(): string[] {
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.test.ts') && /from '(\.\.\/)+support\/browser\.js'/.test(fs.readFileSync(path.join(ROOT, relative), 'utf8'))) {
        files.push(relative);
      }
    }
  };
  walk('test');
  return files.sort();
}
