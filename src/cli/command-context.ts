// How commands get the shared context: global options (--db, --env-file) over the environment.
// Logs go to stderr, so that stdout carries only the command's output (and --json stays parseable).
import fs from 'node:fs';
import type { Command } from 'commander';
import type { ConfigOverrides, Env } from '../config/index.js';
import { ConfigError, loadConfig } from '../config/index.js';
import { createContext, type AppContext } from '../composition-root.js';
import { databaseFileOf } from '../db/database.js';
import { misspelledEnvironmentNames, readEnvFile } from './env-file.js';
import { assertOwnerOrForced } from './file-owner.js';
import { refuseNewDatabaseBesideAnother } from './new-database.js';
import { operatingSystemActor, type AuditEvent } from '../auth/audit.js';
import { printOutput, type CommandOutput } from './output.js';

export interface GlobalOptions {
  db?: string;
  databaseUrl?: string;
  envFile?: string;
  json?: boolean;
  verbose?: boolean;
  force?: boolean;
}

/**
 * The process environment over the --env-file (the environment wins, as with Node's own
 * --env-file). Names in the environment that look like a misspelt setting are warned about.
 */
let misspellingsWarned = false;

export function readEnvironment(envFile: string | undefined): Env {
  // A command may read its settings more than once (serve, migrate); the warnings are given once.
  const warnings = misspellingsWarned ? [] : misspelledEnvironmentNames(process.env);
  misspellingsWarned = true;
  for (const { name, suggestion } of warnings) {
    process.stderr.write(`timetrack: warning: ${name} in the environment is not a setting; did you mean ${suggestion}?\n`);
  }
  if (!envFile) return process.env;
  return { ...readEnvFile(envFile), ...process.env };
}

/** The global options that choose the database (--db, --database-url) as configuration overrides. */
export function databaseOverrides(global: GlobalOptions): ConfigOverrides {
  return { ...(global.db ? { dbPath: global.db } : {}), ...(global.databaseUrl ? { databaseUrl: global.databaseUrl } : {}) };
}

export interface CommandContextOptions {
  overrides?: ConfigOverrides;
  /** Apply pending migrations first (serve, migrate); every other command refuses a schema that is not this build's. */
  migrate?: boolean;
  /** `migrate --status` reads a database whatever its schema. */
  skipSchemaCheck?: boolean;
  /**
   * Only serve, migrate and restore may create the database file: any other command run with the
   * wrong TIMETRACK_DB (or from the wrong folder) would otherwise act on a new, empty database.
   */
  createDatabase?: boolean;
  logDestination?: NodeJS.WritableStream;
  /** false: create no generated secret file (`check`). */
  generateSecrets?: boolean;
}

export async function openCommandContext(global: GlobalOptions, options: CommandContextOptions = {}): Promise<AppContext> {
  const env = readEnvironment(global.envFile);
  const overrides = { ...options.overrides, ...databaseOverrides(global) };
  const { database } = loadConfig(env, overrides);
  // A PostgreSQL database is made by its administrator (createdb), never by timetrack.
  const file = databaseFileOf(database);
  if (file !== undefined) {
    if (!options.createDatabase && !fs.existsSync(file)) throw new ConfigError(`no database at ${file}; is TIMETRACK_DB right?`);
    if (options.createDatabase) refuseNewDatabaseBesideAnother(file, env, overrides);
    assertOwnerOrForced(file, global.force);
  }
  return createContext({
    env,
    overrides,
    migrate: options.migrate ?? false,
    skipSchemaCheck: options.skipSchemaCheck,
    generateSecrets: options.generateSecrets,
    logDestination: options.logDestination ?? process.stderr,
  });
}

/** Opens the context, runs the command body, and always closes the database. */
export async function withCommandContext<T>(global: GlobalOptions, body: (ctx: AppContext) => Promise<T>, options: CommandContextOptions = {}): Promise<T> {
  const ctx = await openCommandContext(global, options);
  try {
    return await body(ctx);
  } finally {
    await ctx.close();
  }
}

/** The last line of an admin command's text output: which database it acted on. */
export function databaseLine(ctx: AppContext): string {
  return `database: ${ctx.database.location}`;
}

/**
 * The shape of most admin commands: open the shared context, run one service call, print its
 * result as JSON (--json) or text followed by the database it acted on, close the database.
 */
export async function runAdminCommand(command: Command, body: (ctx: AppContext) => Promise<CommandOutput>): Promise<void> {
  const global = command.optsWithGlobals<GlobalOptions>();
  const output = await withCommandContext(global, async (ctx) => {
    const result = await body(ctx);
    return { ...result, text: [...result.text, databaseLine(ctx)] };
  });
  printOutput(output, global.json);
}

/** Records what an admin command changed, with the person who ran it (their login on this machine). */
export function recordAdminAction(ctx: AppContext, event: Omit<AuditEvent, 'actor'>): Promise<void> {
  return ctx.services.audit.record({ ...event, actor: operatingSystemActor() });
}
