// The house's arrows, read from the import statements of every file under src/ (README, "Layout";
// docs/database.md): no import circle, no upward import, the engines named only in src/db/ and the
// commands that operate a database, and new migrations named by their timestamp.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { PROJECT_ROOT } from '../support/cli.js';

/** Every file under `folder` (relative to the project) whose name ends in one of `extensions`, as project paths. */
function filesUnder(folder: string, extensions = ['.ts', '.tsx']): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(PROJECT_ROOT, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (extensions.some((extension) => entry.name.endsWith(extension))) found.push(child);
    }
  };
  walk(folder);
  return found.sort();
}

interface Import {
  /** What the statement names: a package (`fastify`) or a project path (`src/db/database.ts`). */
  target: string;
  /** `import type`, or every name imported with `type`: gone once compiled. */
  typeOnly: boolean;
}

// `import … from '…'`, `export … from '…'` (over several lines too), `import '…'` and `import('…')`.
const STATIC_IMPORT = /^\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const BARE_IMPORT = /^\s*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** A relative specifier as the project file it names (`./x.js` → `…/x.ts` or `.tsx`), or the package name. */
function resolve(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base]) {
    if (fs.existsSync(path.join(PROJECT_ROOT, candidate)) && fs.statSync(path.join(PROJECT_ROOT, candidate)).isFile()) return candidate;
  }
  return base;
}

function importsOf(file: string): Import[] {
  const source = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
  const found: Import[] = [];
  for (const [, , typeKeyword, clause = '', specifier = ''] of source.matchAll(STATIC_IMPORT)) {
    const names =
      /\{([^}]*)\}/
        .exec(clause)?.[1]
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean) ?? [];
    const onlyNamed = clause.trim().startsWith('{');
    const typeOnly = typeKeyword !== undefined || (onlyNamed && names.length > 0 && names.every((name) => name.startsWith('type ')));
    found.push({ target: resolve(file, specifier), typeOnly });
  }
  for (const [, specifier = ''] of source.matchAll(BARE_IMPORT)) found.push({ target: resolve(file, specifier), typeOnly: false });
  for (const [, specifier = ''] of source.matchAll(DYNAMIC_IMPORT)) found.push({ target: resolve(file, specifier), typeOnly: false });
  return found;
}

const SOURCES = filesUnder('src');
const GRAPH = new Map(SOURCES.map((file) => [file, importsOf(file)]));

const under = (folder: string) => (target: string) => target.startsWith(`${folder}/`);
const packageNamed = (name: string) => (target: string) => target === name || target.startsWith(`${name}/`);
const isConfig = (target: string) => target === 'src/config.ts' || target.startsWith('src/config/');

/** The imports of files under `folder` that `forbidden` matches, as "file → target". */
function importsMatching(folder: string, forbidden: (target: string, item: Import) => boolean): string[] {
  return [...GRAPH]
    .filter(([file]) => file.startsWith(`${folder}/`))
    .flatMap(([file, imports]) => imports.filter((item) => forbidden(item.target, item)).map((item) => `${file} → ${item.target}`));
}

/** The circles of the import graph (strongly connected groups of more than one file, or a file importing itself). */
function circles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    for (const { target } of GRAPH.get(file) ?? []) {
      if (!GRAPH.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        group.push(member);
      } while (member !== file);
      const selfImport = GRAPH.get(file)!.some((item) => item.target === file);
      if (group.length > 1 || selfImport) found.push(group.sort());
    }
  };
  for (const file of GRAPH.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports under src/', () => {
  it('reads the imports it checks (the parser finds a known import of each kind)', () => {
    expect(GRAPH.get('src/db/copy.ts')).toContainEqual({ target: 'src/db/migrate.ts', typeOnly: false });
    expect(GRAPH.get('src/db/open.ts')).toContainEqual({ target: 'src/db/sqlite.ts', typeOnly: false });
    expect(GRAPH.get('src/db/tables.ts')).toContainEqual({ target: 'src/db/types.ts', typeOnly: true });
  });

  it('form no circle', () => {
    expect(circles()).toEqual([]);
  });

  it('the domains (src/auth, src/time) import nothing of http, cli, config, the logger, Fastify, or each other', () => {
    const upward = (target: string) =>
      under('src/http')(target) ||
      under('src/cli')(target) ||
      isConfig(target) ||
      target === 'src/logger.ts' ||
      packageNamed('fastify')(target) ||
      packageNamed('@fastify')(target);
    expect(importsMatching('src/auth', (target) => upward(target) || under('src/time')(target) || under('src/teams')(target))).toEqual([]);
    expect(importsMatching('src/time', (target) => upward(target) || under('src/auth')(target) || under('src/teams')(target))).toEqual([]);
    // The team layer sits above both (docs/architecture.md, "The team layer") and below the edges.
    expect(importsMatching('src/teams', upward)).toEqual([]);
  });

  it('src/db imports nothing of the domains, http or cli', () => {
    expect(importsMatching('src/db', (target) => ['src/auth', 'src/time', 'src/teams', 'src/http', 'src/cli'].some((folder) => under(folder)(target)))).toEqual(
      [],
    );
  });

  it('the browser client (src/web) takes only types from src/http', () => {
    expect(importsMatching('src/web', (target, item) => under('src/http')(target) && !item.typeOnly)).toEqual([]);
  });
});

/**
 * The commands that operate a database as such (its file, its copy, its backup, its check) and may
 * say which engine it is; everything else asks the port (src/db/database.ts).
 */
const COMMANDS_THAT_NAME_ENGINES = [
  'src/cli/backup.ts',
  'src/cli/check.ts',
  'src/cli/config-command.ts',
  'src/cli/db.ts',
  'src/cli/migrate.ts',
  'src/cli/serve.ts',
];
const ENGINE_NAME = /(['"`])(postgres|sqlite|pg|better-sqlite3)\1/;

describe('engines', () => {
  it("are named ('postgres', 'sqlite', 'pg', 'better-sqlite3') only in src/db, migrations/dialect.ts and the database commands", () => {
    const allowed = (file: string) => file.startsWith('src/db/') || file === 'migrations/dialect.ts' || COMMANDS_THAT_NAME_ENGINES.includes(file);
    const naming = [...SOURCES, ...filesUnder('migrations')]
      .filter((file) => !allowed(file))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(PROJECT_ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, at) => (ENGINE_NAME.test(line) ? [`${file}:${at + 1}: ${line.trim()}`] : [])),
      );
    expect(naming).toEqual([]);
  });
});

/** The last migration named by a number; every later one is named by the UTC time it was written (docs/database.md). */
const LAST_NUMBERED_MIGRATION = '011_export_leases';
const TIMESTAMPED = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})_[a-z0-9]+(?:_[a-z0-9]+)*$/;

function isTimestamped(name: string): boolean {
  const match = TIMESTAMPED.exec(name);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

describe('migrations', () => {
  const files = fs
    .readdirSync(path.join(PROJECT_ROOT, 'migrations'))
    .filter((file) => file.endsWith('.ts') && !['index.ts', 'dialect.ts'].includes(file))
    .map((file) => file.replace(/\.ts$/, ''));

  it('after 011_export_leases are named YYYYMMDDHHMMSS_name (a file, and its name in migrations/index.ts)', () => {
    // Kysely applies them in name order: a timestamp sorts after every numbered name.
    const later = [...new Set([...files, ...Object.keys(migrations)])].sort().filter((name) => name > LAST_NUMBERED_MIGRATION);
    expect(later.filter((name) => !isTimestamped(name))).toEqual([]);
  });

  it('each file is listed in migrations/index.ts under its own name, and each name there has its file', () => {
    expect(Object.keys(migrations).sort()).toEqual([...files].sort());
  });

  it('no two timestamped migrations share a timestamp (their order would rest on their names alone)', () => {
    const stamps = files.filter(isTimestamped).map((name) => name.slice(0, 14));
    expect(stamps.filter((stamp, index) => stamps.indexOf(stamp) !== index)).toEqual([]);
  });

  it('the timestamp pattern takes what it should and nothing else', () => {
    expect(isTimestamped('20261126143000_add_something')).toBe(true);
    for (const name of ['012_add_something', '20261326143000_bad_month', '2026112614300_short', '20261126143000-dash', '20261126143000_Upper'])
      expect(isTimestamped(name), name).toBe(false);
  });
});
