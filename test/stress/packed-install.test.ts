// The release artefact: `npm pack` gives a tarball that installs with production dependencies only
// (no TypeScript, esbuild or vitest) and runs. Here because the install fetches every dependency from
// the registry (a minute or two).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { cleanEnv, PROJECT_ROOT } from '../support/cli.js';

describe('the packed release', () => {
  it('installs globally into an empty prefix and runs --version, migrate, user create and serve', async () => {
    const dir = makeTempDir('timetrack-pack-');
    const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    // npm pack runs prepack (the build) in the project folder.
    await execa('npm', ['pack', '--pack-destination', dir], { cwd: PROJECT_ROOT });
    const tarball = path.join(dir, `timetrack-${manifest.version}.tgz`);
    const listing = (await execa('tar', ['tzf', tarball])).stdout.split('\n');
    expect(listing).toEqual(expect.arrayContaining(['package/bin/timetrack.cjs', 'package/dist/cli/main.js', 'package/dist/web/index.html', 'package/config/timetrack.service', 'package/LICENSE', 'package/CHANGELOG.md']));
    expect(listing.some((file) => file.startsWith('package/src/') || file.startsWith('package/test/'))).toBe(false);

    const prefix = path.join(dir, 'prefix');
    await execa('npm', ['install', '--global', '--prefix', prefix, '--omit=dev', '--no-audit', '--no-fund', '--allow-scripts=timetrack,argon2,better-sqlite3', tarball], {
      cwd: dir,
      env: { npm_config_allow_scripts: 'timetrack,argon2,better-sqlite3' },
    });
    const installed = path.join(prefix, 'lib/node_modules/timetrack/node_modules');
    for (const tool of ['typescript', 'esbuild', 'vitest']) expect(fs.existsSync(path.join(installed, tool))).toBe(false);

    const timetrack = path.join(prefix, 'bin/timetrack');
    const db = path.join(dir, 'state/timetrack.db');
    const run = (args: string[], input?: string) =>
      execa(timetrack, ['--db', db, ...args], { env: cleanEnv(), extendEnv: false, cwd: dir, ...(input ? { input } : { stdin: 'ignore' }) });
    expect((await run(['--version'])).stdout).toMatch(new RegExp(`^${manifest.version.replace(/[.]/g, "\\.")} \\(commit [0-9a-f]{12}`));
    expect((await run(['migrate'])).stdout).toMatch(new RegExp(`^applied ${Object.keys(migrations).length} migration\\(s\\)`));
    expect((await run(['user', 'create', '--email', 'admin@example.com', '--name', 'Admin', '--password-stdin'], `${PASSWORD}\n`)).stdout).toMatch(/^created account admin@example\.com/);

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
    } finally {
      server.kill('SIGTERM');
      await server;
    }
  }, 900_000);
});
