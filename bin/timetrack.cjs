#!/usr/bin/env node
// The timetrack executable. `npm install` (prepare) compiles the TypeScript sources and bundles the
// CLI into dist/cli: one file loads in a fraction of the time of hundreds of modules. This file is
// CommonJS so that it runs before anything starts libuv's thread pool: dist/cli/launch.cjs sizes
// the pool and V8's heap first (src/cli/launch.ts says why), then the ES module bundle loads.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const bundle = path.join(__dirname, '../dist/cli');
if (!existsSync(path.join(bundle, 'main.js')) || !existsSync(path.join(bundle, 'launch.cjs'))) {
  process.stderr.write('timetrack: dist/ is missing; run `npm install` (or `npm run build`) in the project folder\n');
  process.exit(1);
}
require(path.join(bundle, 'launch.cjs')).prepareProcess();
import(pathToFileURL(path.join(bundle, 'main.js')).href)
  .then(({ main }) => main(process.argv))
  .then((code) => {
    process.exitCode = code;
  });
