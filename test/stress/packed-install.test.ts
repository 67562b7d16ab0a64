// The release artefact: `npm run release` gives a tarball that installs only what the bundle loads at
// run time (the native modules, pino-pretty and pdfkit with its font, with what they need) at the versions of its
// npm-shrinkwrap.json, without a warning on Node 20, and runs. Here because the install fetches those
// packages from the registry and compiles better-sqlite3 where no prebuilt module can be downloaded
// (a few minutes).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { cleanEnv, PROJECT_ROOT } from '../support/cli.js';

/**
 * What scripts/build.mjs leaves outside the bundle, so what the release depends on: the native modules,
 * pino-pretty (found by name at run time), and pdfkit with its font (both read their own files).
 */
const RUNTIME_DEPENDENCIES = ['argon2', 'better-sqlite3', 'dejavu-fonts-ttf', 'pdfkit', 'pino-pretty'];

/** Every package folder under a node_modules folder (scoped and nested ones too), as lock paths. */
function installedPackages(root: string, base = 'node_modules'): string[] {
  const folder = path.join(root, base);
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => {
      if (name.startsWith('@'))
        return fs
          .readdirSync(path.join(folder, name))
          .flatMap((inner) => [`${base}/${name}/${inner}`, ...installedPackages(root, `${base}/${name}/${inner}/node_modules`)]);
      return [`${base}/${name}`, ...installedPackages(root, `${base}/${name}/node_modules`)];
    });
}

describe('the packed release', () => {
  it('installs as the README says into an empty prefix, only the run-time packages at their locked versions and without a warning, and runs --version, migrate, user create and serve', async () => {
    const dir = makeTempDir('timetrack-pack-');
    const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(RUNTIME_DEPENDENCIES);
    // `npm pack` in the checkout would ship its package.json: it says to use the release script.
    const packed = await execa('npm', ['pack', '--pack-destination', dir], { cwd: PROJECT_ROOT, reject: false });
    expect(packed.exitCode).not.toBe(0);
    expect(packed.stderr).toContain('make the release with `npm run release`');
    await execa('npm', ['run', 'release', '--', dir], { cwd: PROJECT_ROOT });
    const tarball = path.join(dir, `timetrack-${manifest.version}.tgz`);
    const listing = (await execa('tar', ['tzf', tarball])).stdout.split('\n');
    expect(listing).toEqual(
      expect.arrayContaining([
        'package/bin/timetrack.cjs',
        'package/dist/cli/main.js',
        'package/dist/web/index.html',
        'package/config/timetrack.service',
        'package/LICENSE',
        'package/CHANGELOG.md',
        'package/npm-shrinkwrap.json',
      ]),
    );
    expect(listing.some((file) => file.startsWith('package/src/') || file.startsWith('package/test/') || file.startsWith('package/scripts/'))).toBe(false);
    // Only the chunks of this build: every file of dist/cli is one the checkout's build has now.
    expect(listing.filter((file) => file.startsWith('package/dist/cli/')).sort()).toEqual(
      fs
        .readdirSync(path.join(PROJECT_ROOT, 'dist/cli'))
        .map((file) => `package/dist/cli/${file}`)
        .sort(),
    );
    const released = JSON.parse((await execa('tar', ['xzf', tarball, '-O', 'package/package.json'])).stdout) as Record<string, unknown>;
    expect(Object.keys(released.dependencies as object).sort()).toEqual(RUNTIME_DEPENDENCIES);
    expect(released).not.toHaveProperty('devDependencies');
    expect(released).not.toHaveProperty('scripts');
    const shrinkwrap = JSON.parse((await execa('tar', ['xzf', tarball, '-O', 'package/npm-shrinkwrap.json'])).stdout) as {
      packages: Record<string, { version?: string; dev?: boolean }>;
    };
    const locked = Object.keys(shrinkwrap.packages).filter((location) => location !== '');
    for (const name of RUNTIME_DEPENDENCIES) expect(locked).toContain(`node_modules/${name}`);
    for (const bundled of ['fastify', 'kysely', 'pg', 'pino', 'nodemailer', 'date-holidays', 'typescript', 'esbuild'])
      expect(locked).not.toContain(`node_modules/${bundled}`);

    // The README's three lines, under a prefix: unpack where npm keeps global packages, npm ci, link the command.
    const prefix = path.join(dir, 'prefix');
    const root = path.join(prefix, 'lib/node_modules/timetrack');
    fs.mkdirSync(root, { recursive: true });
    fs.mkdirSync(path.join(prefix, 'bin'));
    await execa('tar', ['-xzf', tarball, '--strip-components=1', '-C', root]);
    const install = await execa('npm', ['ci', '--prefix', root], { cwd: dir, env: { npm_config_update_notifier: 'false' }, all: true });
    fs.symlinkSync(path.join(root, 'bin/timetrack.cjs'), path.join(prefix, 'bin/timetrack'));
    // No warning about the release (engines, deprecations, peers, install scripts). A machine's own npm
    // configuration may draw one about itself (a build machine without internet sets nodedir in
    // ~/.npmrc, or npx passes it on in the environment, so that node-gyp finds Node's headers offline;
    // npm 11 calls it an unknown setting).
    const warnings = install.all
      .split('\n')
      .filter((line) => /\bnpm (warn|WARN|error|ERR)/.test(line) && !/Unknown (user|env|global|builtin) config "nodedir"/.test(line));
    expect(warnings).toEqual([]);
    expect(process.version).toMatch(/^v20\./);
    // Exactly the locked packages, where the lock puts them, at their locked versions.
    expect(installedPackages(root).sort()).toEqual(locked.sort());
    for (const location of locked) {
      const installedVersion = (JSON.parse(fs.readFileSync(path.join(root, location, 'package.json'), 'utf8')) as { version: string }).version;
      expect(installedVersion, location).toBe(shrinkwrap.packages[location]!.version);
    }

    const timetrack = path.join(prefix, 'bin/timetrack');
    const db = path.join(dir, 'state/timetrack.db');
    const run = (args: string[], input?: string) =>
      execa(timetrack, ['--db', db, ...args], { env: cleanEnv(), extendEnv: false, cwd: dir, ...(input ? { input } : { stdin: 'ignore' }) });
    expect((await run(['--version'])).stdout).toMatch(new RegExp(`^${manifest.version.replace(/[.]/g, '\\.')} \\(commit [0-9a-f]{12}`));
    expect((await run(['migrate'])).stdout).toMatch(new RegExp(`^applied ${Object.keys(migrations).length} migration\\(s\\)`));
    expect((await run(['user', 'create', '--email', 'admin@example.com', '--name', 'Admin', '--password-stdin'], `${PASSWORD}\n`)).stdout).toMatch(
      /^created account admin@example\.com/,
    );

    const server = execa(timetrack, ['--db', db, 'serve', '--port', '0'], { env: cleanEnv({ LOG_LEVEL: 'info' }), extendEnv: false, reject: false, all: true });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let output = '';
        server.all?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        void server.then(() => reject(new Error(`serve exited:\n${output}`)));
      });
      const health = await fetch(`${baseUrl}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', version: manifest.version, commit: expect.any(String), engine: 'sqlite' });
      // The browser client ships in the release too.
      const page = await fetch(`${baseUrl}/login`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      // Validation, hashing and serialisation from the bundle: a registration and a sign-in.
      const post = (route: string, body: unknown) =>
        fetch(`${baseUrl}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
      expect((await post('/api/auth/register', { email: 'not an address', password: PASSWORD, full_name: 'Ann' })).status).toBe(400);
      const signIn = await post('/api/auth/login', { email: 'admin@example.com', password: PASSWORD });
      expect(signIn.status).toBe(200);
      const { token } = (await signIn.json()) as { token: string };
      expect(token).toEqual(expect.any(String));
      // The timesheet PDF: pdfkit and its font from the installed packages.
      const pdf = await fetch(`${baseUrl}/api/stats/month.pdf?lang=de`, { headers: { authorization: `Bearer ${token}` } });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    } finally {
      server.kill('SIGTERM');
      await server;
    }
  }, 900_000);
});
