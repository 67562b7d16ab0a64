// Admin commands must start fast: they never load the HTTP server or other server-only code. The
// CLI is one bundle (dist/cli) whose server-only parts are separate chunks, loaded on first use.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { BIN, cleanEnv, PROJECT_ROOT } from '../support/cli.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { forEngine } from '../support/database.js';

const HOOK = path.join(PROJECT_ROOT, 'test/support/record-loaded-modules.mjs');
const BUNDLE = path.join(PROJECT_ROOT, 'dist/cli');

/** A string that only the code of each server-only library contains. */
const SERVER_ONLY = {
  fastify: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  nodemailer: 'SMTPConnection',
  'date-holidays': 'Himmelfahrt',
};

async function filesLoadedBy(args: string[]): Promise<string[]> {
  const record = path.join(makeTempDir(), 'loaded.txt');
  const engine = forEngine(args, { LOADED_MODULES_FILE: record });
  const result = await execa('node', ['--import', HOOK, BIN, ...engine.args], { env: cleanEnv(engine.env), extendEnv: false, reject: false, stdin: 'ignore' });
  expect(result.exitCode, result.stderr).toBe(0);
  return fs
    .readFileSync(record, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url));
}

describe('start-up of admin commands', () => {
  it('user list, token list and migrate --status load none of the server-only code', async () => {
    const chunks = fs
      .readdirSync(BUNDLE)
      .filter((file) => file.endsWith('.js'))
      .map((file) => path.join(BUNDLE, file));
    // Each marker is in the bundle, so its absence below means something.
    for (const marker of Object.values(SERVER_ONLY))
      expect(
        chunks.some((chunk) => fs.readFileSync(chunk, 'utf8').includes(marker)),
        marker,
      ).toBe(true);

    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    for (const args of [
      ['user', 'list'],
      ['token', 'list', '--user', 'ann@example.com'],
      ['migrate', '--status'],
    ]) {
      const loaded = await filesLoadedBy(['--db', db, ...args]);
      expect(loaded).toContain(path.join(BUNDLE, 'main.js'));
      for (const file of loaded.filter((f) => f.startsWith(BUNDLE))) {
        const code = fs.readFileSync(file, 'utf8');
        for (const [library, marker] of Object.entries(SERVER_ONLY))
          expect(code.includes(marker), `${args.join(' ')} loads ${library} (${path.basename(file)})`).toBe(false);
      }
      expect(loaded.some((file) => file.includes('/node_modules/fastify/'))).toBe(false);
    }
  });
});
