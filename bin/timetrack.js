#!/usr/bin/env node
// The timetrack executable. `npm install` (prepare) compiles the TypeScript sources and bundles the
// CLI into dist/cli: one file loads in a fraction of the time of hundreds of modules.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('timetrack: dist/ is missing; run `npm install` (or `npm run build`) in the project folder\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
