// The version of this build: package.json's, found upwards from this file (dist/cli in the bundle,
// src in tests and the type check), and the commit it was built from (set by scripts/build.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __TIMETRACK_COMMIT__: string | undefined;

function readPackageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (manifest.name === 'timetrack') return manifest.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

let version: string | undefined;

export function packageVersion(): string {
  return (version ??= readPackageVersion());
}

/** The git commit of the build (`unknown` when run from sources, or built outside a git checkout). */
export function buildCommit(): string {
  return typeof __TIMETRACK_COMMIT__ === 'string' ? __TIMETRACK_COMMIT__ : 'unknown';
}

/** What `--version` prints: `0.2.0 (commit 1a2b3c4d5e6f)`. */
export function versionLine(): string {
  return `${packageVersion()} (commit ${buildCommit()})`;
}
