// `npm run release [-- <folder>]`: the release tarball, timetrack-<version>.tgz (in the checkout, or in
// <folder>). It ships the built dist/, bin/, config/, the docs, and a package.json whose dependencies
// are only what the bundle loads at run time: the native modules (better-sqlite3, argon2) and
// pino-pretty, which esbuild leaves outside dist/cli (scripts/build.mjs); everything else is bundled.
// npm-shrinkwrap.json locks those and every package they need at the versions and integrity of
// package-lock.json, so an install gets exactly them. The release has no install script of its own
// (npm cannot be told to allow one of a tarball's, so it would warn at every install).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changelogMismatch, unreleasedWarning } from './changelog-check.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv.includes('--refuse-pack')) {
  // `npm pack` in the checkout would ship the checkout's package.json (every build tool a dependency, the prepare script).
  process.stderr.write('timetrack: make the release with `npm run release` (a tarball with the run-time dependencies and their lock), not `npm pack`\n');
  process.exit(1);
}

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const packages = lock.packages;

/** Where node finds `name` from the package at `from` (a lock path such as node_modules/a/node_modules/b). */
function resolve(from, name) {
  for (let base = from; ;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent >= 0 ? base.slice(0, parent) : '';
  }
}

/** The run-time dependencies and every package they need, as lock paths. */
function runtimeClosure() {
  const closure = new Set();
  const visit = (location) => {
    if (closure.has(location)) return;
    closure.add(location);
    const entry = packages[location];
    for (const [names, optional] of [
      [entry.dependencies, false],
      [entry.optionalDependencies, true],
    ]) {
      for (const name of Object.keys(names ?? {})) {
        const found = resolve(location, name);
        if (found) visit(found);
        else if (!optional) throw new Error(`${location} needs ${name}, which package-lock.json does not have (run npm install)`);
      }
    }
  };
  for (const name of Object.keys(manifest.dependencies)) {
    const found = resolve('', name);
    if (!found) throw new Error(`${name} is not in package-lock.json (run npm install)`);
    visit(found);
  }
  return hoisted([...closure]);
}

/**
 * The closure laid out as npm installs it on its own: a package nested under another only because the
 * checkout's tree holds a different version at the top goes to the top when the release has none there.
 */
function hoisted(locations) {
  const placed = new Map(locations.map((location) => [location, location]));
  for (const location of [...locations].sort((a, b) => a.split('/node_modules/').length - b.split('/node_modules/').length)) {
    const current = placed.get(location);
    const nested = current.lastIndexOf('/node_modules/');
    if (nested < 0) continue;
    const top = `node_modules/${current.slice(nested + '/node_modules/'.length)}`;
    if ([...placed.values()].includes(top)) continue;
    for (const [original, at] of placed) if (at === current || at.startsWith(`${current}/`)) placed.set(original, top + at.slice(current.length));
  }
  return [...placed.entries()].map(([original, at]) => ({ original, at })).sort((a, b) => a.at.localeCompare(b.at));
}

const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
const mismatch = changelogMismatch(manifest.version, changelog);
if (mismatch) {
  process.stderr.write(`timetrack: ${mismatch}\n`);
  process.exit(1);
}
// Not refused: a checkout between releases still builds a tarball to test; the name must not fool anyone.
const unreleased = unreleasedWarning(manifest.version, changelog);
if (unreleased) process.stderr.write(`timetrack: warning: ${unreleased}\n`);

const destination = path.resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? ROOT);
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });

const staging = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-release-')), 'timetrack');
try {
  fs.mkdirSync(staging);
  // The checkout's own build hook stays behind: the release ships dist/ built.
  for (const entry of manifest.files.filter((file) => file !== 'scripts/prepare.cjs')) {
    fs.cpSync(path.join(ROOT, entry), path.join(staging, entry), { recursive: true });
  }
  const allowScripts = Object.fromEntries(Object.entries(manifest.allowScripts ?? {}).filter(([name]) => name in manifest.dependencies));
  const released = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    type: manifest.type,
    license: manifest.license,
    bin: manifest.bin,
    engines: manifest.engines,
    dependencies: manifest.dependencies,
    allowScripts,
  };
  fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(released, null, 2)}\n`);
  const closure = runtimeClosure();
  const shrinkwrap = {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': {
        name: manifest.name,
        version: manifest.version,
        license: manifest.license,
        dependencies: manifest.dependencies,
        bin: manifest.bin,
        engines: manifest.engines,
      },
      // The checkout's flags (dev: only the tools need it) mean nothing in the release's tree.
      ...Object.fromEntries(
        closure.map(({ original, at }) => {
          const { dev: _dev, devOptional: _devOptional, ...entry } = packages[original];
          return [at, entry];
        }),
      ),
    },
  };
  fs.writeFileSync(path.join(staging, 'npm-shrinkwrap.json'), `${JSON.stringify(shrinkwrap, null, 2)}\n`);
  fs.mkdirSync(destination, { recursive: true });
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', destination], { cwd: staging, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = path.join(destination, `${manifest.name}-${manifest.version}.tgz`);
  process.stdout.write(
    `${tarball}: ${Object.keys(manifest.dependencies).join(', ')} and ${closure.length - Object.keys(manifest.dependencies).length} packages they need, locked in npm-shrinkwrap.json\n`,
  );
} finally {
  fs.rmSync(path.dirname(staging), { recursive: true, force: true });
}
