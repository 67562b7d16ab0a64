// Runs the real built binary (bin/timetrack.cjs → dist/) with execa.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options } from 'execa';
import { forEngine } from './database.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(PROJECT_ROOT, 'bin/timetrack.cjs');

/**
 * A clean environment: only what the command needs, so the developer's own settings never leak in
 * (nor the machine's /etc/timetrack/timetrack.env, which a command given no database would read).
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', TIMETRACK_ENV_FILE: '/nonexistent/timetrack.env', ...extra };
}

export function runCli(givenArgs: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}) {
  const { args, env } = forEngine(givenArgs, options.env ?? {});
  const execaOptions: Options = {
    reject: false,
    env: cleanEnv(env),
    extendEnv: false,
    cwd: options.cwd,
    timeout: 60_000,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' }),
  };
  return execa('node', [BIN, ...args], execaOptions);
}
