// Admin commands must start fast: they never load the HTTP server or other server-only modules.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, PROJECT_ROOT } from '../helpers/cli.js';
import { createAccountWithCli, tempDb } from './helpers.js';

const HOOK = path.join(PROJECT_ROOT, 'test/helpers/record-loaded-packages.mjs');

async function packagesLoadedBy(args: string[]): Promise<string[]> {
  const result = await execa('node', ['--import', HOOK, BIN, ...args], { env: cleanEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
  expect(result.exitCode, result.stderr).toBe(0);
  const line = result.stderr.split('\n').find((l) => l.startsWith('LOADED_PACKAGES '));
  return JSON.parse(line!.slice('LOADED_PACKAGES '.length)) as string[];
}

const SERVER_ONLY = ['fastify', '@fastify/swagger', '@fastify/rate-limit', 'nodemailer', 'pino-pretty', 'date-holidays', 'moment-timezone'];

describe('start-up of admin commands', () => {
  it('user list, token list and migrate --status load no server-only package', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    for (const args of [['user', 'list'], ['token', 'list', '--user', 'ann@example.com'], ['migrate', '--status']]) {
      const loaded = await packagesLoadedBy(['--db', db, ...args]);
      expect(loaded).toContain('better-sqlite3'); // the hook sees CommonJS packages
      for (const name of SERVER_ONLY) expect(loaded, args.join(' ')).not.toContain(name);
    }
  });
});
