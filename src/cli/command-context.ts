// How commands get the shared context: global options (--db, --env-file) over the environment.
// Logs go to stderr, so that stdout carries only the command's output (and --json stays parseable).
import fs from 'node:fs';
import { parseEnv } from 'node:util';
import type { Command } from 'commander';
import type { ConfigOverrides, Env } from '../config.js';
import { ConfigError } from '../config.js';
import { createContext, type AppContext } from '../composition-root.js';
import { operatingSystemActor, type AuditEvent } from '../auth/audit.js';
import { printOutput, type CommandOutput } from './output.js';

export interface GlobalOptions {
  db?: string;
  envFile?: string;
  json?: boolean;
  verbose?: boolean;
}

/** The process environment over the --env-file (the environment wins, as with Node's own --env-file). */
export function readEnvironment(envFile: string | undefined): Env {
  if (!envFile) return process.env;
  let text: string;
  try {
    text = fs.readFileSync(envFile, 'utf8');
  } catch (error) {
    throw new ConfigError(`--env-file: cannot read ${envFile} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return { ...parseEnv(text), ...process.env };
}

export interface CommandContextOptions {
  overrides?: ConfigOverrides;
  /** Apply pending migrations first (every command but `migrate --status` and `serve --no-migrate`). */
  migrate?: boolean;
  logDestination?: NodeJS.WritableStream;
}

export async function openCommandContext(global: GlobalOptions, options: CommandContextOptions = {}): Promise<AppContext> {
  return createContext({
    env: readEnvironment(global.envFile),
    overrides: { ...options.overrides, ...(global.db ? { dbPath: global.db } : {}) },
    migrate: options.migrate ?? true,
    logDestination: options.logDestination ?? process.stderr,
  });
}

/** Opens the context, runs the command body, and always closes the database. */
export async function withCommandContext<T>(
  global: GlobalOptions,
  body: (ctx: AppContext) => Promise<T>,
  options: CommandContextOptions = {},
): Promise<T> {
  const ctx = await openCommandContext(global, options);
  try {
    return await body(ctx);
  } finally {
    await ctx.close();
  }
}

/**
 * The shape of most admin commands: open the shared context, run one service call, print its
 * result as JSON (--json) or text, close the database.
 */
export async function runAdminCommand(command: Command, body: (ctx: AppContext) => Promise<CommandOutput>): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  const output = await withCommandContext(global, body);
  printOutput(output, global.json);
}

/** Records what an admin command changed, with the person who ran it (their login on this machine). */
export function recordAdminAction(ctx: AppContext, event: Omit<AuditEvent, 'actor'>): Promise<void> {
  return ctx.services.audit.record({ ...event, actor: operatingSystemActor() });
}
