// `prepare` (run by `npm install` and `npm ci` in the project folder): builds dist/ in a checkout. An
// unpacked release ships a built dist/ without the sources or the build tools (devDependencies), so
// there is nothing to build there and `npm ci --omit=dev` must not fail for want of tsc.
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
