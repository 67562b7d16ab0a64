// Running the built CLI as another user (`nobody`), as root does to see what the service's user sees.
// `nobody` must be able to read the executable, the bundle and the native modules: a checkout inside a
// private folder (a clone under a 0700 temporary folder, a home folder) does not let it in. Then the
// parts the CLI loads at run time are copied once per test process into a temporary folder others
// can read: bin/, dist/cli/, package.json and the externals of the bundle (scripts/build.mjs) with the
// packages they need, without their sources and build leftovers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa, type Options } from 'execa';
import { BIN, cleanEnv, PROJECT_ROOT } from './cli.js';

/** What the bundle loads by name at run time (scripts/build.mjs, `external`); pg-native is never installed. */
const RUNTIME_MODULES = ['better-sqlite3', 'argon2', 'pino-pretty'];
/** Folders of a package that nothing loads at run time (sources, object files, the SQLite amalgamation). */
const BUILD_LEFTOVERS = new Set(['deps', 'src', 'obj', 'obj.target', '.deps', 'test', 'docs']);

/** Whether users other than the owner and group may open `file`: every folder above it searchable, the file readable. */
export function readableByOthers(file: string): boolean {
  let current = path.resolve(file);
  if ((fs.statSync(current).mode & 0o004) === 0) return false;
  while (path.dirname(current) !== current) {
    current = path.dirname(current);
    if ((fs.statSync(current).mode & 0o001) === 0) return false;
  }
  return true;
}

/**
 * Lets other users (`nobody`) into `folder`: adds read and search for them and keeps its other bits, so
 * the temporary folder above a test's own (/tmp: 1777) stays world-writable and sticky for everyone else.
 */
export function searchableByOthers(folder: string): void {
  fs.chmodSync(folder, (fs.statSync(folder).mode & 0o7777) | 0o755);
}

/** The package folder `name` resolves to from `from` (node's lookup through node_modules folders). */
function packageFolder(name: string, from: string): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (folder === PROJECT_ROOT || path.dirname(folder) === folder) throw new Error(`${name} is not installed (from ${from})`);
  }
}

/** The runtime modules and every package they depend on, as folders of this checkout. */
function runtimePackages(): string[] {
  const found = new Set<string>();
  const visit = (folder: string) => {
    if (found.has(folder)) return;
    found.add(folder);
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      try {
        visit(packageFolder(name, folder));
      } catch (error) {
        if (!manifest.optionalDependencies?.[name]) throw error;
      }
    }
  };
  for (const name of RUNTIME_MODULES) visit(packageFolder(name, PROJECT_ROOT));
  return [...found];
}

let copied: string | undefined;

/** A copy of what the CLI loads at run time, in a folder every user can read; made once per process. */
function copyForOthers(): string {
  if (copied) return copied;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-readable-'));
  process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  for (const part of ['bin', 'dist/cli', 'package.json']) fs.cpSync(path.join(PROJECT_ROOT, part), path.join(root, part), { recursive: true });
  for (const folder of runtimePackages()) {
    fs.cpSync(folder, path.join(root, path.relative(PROJECT_ROOT, folder)), {
      recursive: true,
      filter: (source) => !BUILD_LEFTOVERS.has(path.basename(source)) && !source.endsWith('.a'),
    });
  }
  // Folders 0755 and files 0644 (0755 where executable), whatever the umask of the copy was.
  const open = (target: string) => {
    const stat = fs.statSync(target);
    fs.chmodSync(target, stat.isDirectory() || stat.mode & 0o100 ? 0o755 : 0o644);
    if (stat.isDirectory()) for (const entry of fs.readdirSync(target)) open(path.join(target, entry));
  };
  open(root);
  const bin = path.join(root, 'bin/timetrack.cjs');
  if (!readableByOthers(bin)) throw new Error(`${os.tmpdir()} does not let other users in either: set TMPDIR to a folder they can search`);
  copied = bin;
  return bin;
}

/** The executable another user can run: this checkout's when others can read it, else the copy. */
export function executableForOthers(): string {
  const needed = [
    BIN,
    path.join(PROJECT_ROOT, 'dist/cli/main.js'),
    ...RUNTIME_MODULES.map((name) => path.join(packageFolder(name, PROJECT_ROOT), 'package.json')),
  ];
  return needed.every(readableByOthers) ? BIN : copyForOthers();
}

/** Runs `timetrack <args>` as nobody (setpriv, as root) with a clean environment; never rejects. */
export function runCliAsNobody(args: string[], options: Options = {}) {
  return execa('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'node', executableForOthers(), ...args], {
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    ...options,
  });
}
