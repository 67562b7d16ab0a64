// `prepare` (run by `npm install` and `npm ci` in the project folder): builds dist/ in a checkout. The
// release (scripts/release.mjs) ships a built dist/ and no prepare script; a checkout without the
// build tools (`npm ci --omit=dev`) keeps a dist/ it already has.
'use strict';
const { existsSync } = require('node:fs');
const { execSync } = require('node:child_process');

const canBuild = existsSync('src') && existsSync('node_modules/typescript') && existsSync('node_modules/esbuild');
if (canBuild) execSync('npm run build', { stdio: 'inherit' });
else if (existsSync('dist/cli/main.js')) process.stdout.write('timetrack: using the built dist/ of this release\n');
else {
  process.stderr.write('timetrack: dist/ is missing and cannot be built here (no sources or no devDependencies)\n');
  process.exit(1);
}
