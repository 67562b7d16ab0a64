// The version of this build: package.json's, found upwards from this file (dist/cli in the bundle,
// src in tests and the type check).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
