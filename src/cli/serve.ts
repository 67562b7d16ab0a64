import { stdoutRole } from './output.js';
import fs from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { buildCommit, packageVersion } from '../version.js';
import type { AppContext } from '../composition-root.js';
import type { StartingListener } from '../http/starting.js';
import { openCommandContext, type GlobalOptions } from './command-context.js';
import { databaseFileNamed, loadConfig } from '../config/index.js';
import { refuseNewDatabaseBesideAnother } from './new-database.js';
import { lockDatabaseFile, type HeldLock } from '../db/file-lock.js';
import { databaseOverrides, readEnvironment } from './command-context.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('not a port number (0 to 65535)');
  return port;
}

interface ServeOptions {
  host?: string;
  port?: number;
  dev?: boolean;
  migrate: boolean;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP API (applies pending migrations first)')
    .option('--host <host>', 'listen address (env HOST, default 127.0.0.1)')
    .option('--port <port>', 'listen port, 0 for any free port (env PORT, default 8080)', parsePort)
    .option('--dev', 'dev mode: reset tokens in responses and on the terminal, pretty logs; loopback only, never behind a proxy')
    .option('--no-migrate', "do not apply pending migrations: refuse to start unless the schema is this version's")
    .action(async (options: ServeOptions, command: Command) => {
      stdoutRole.log = true;
      const global = command.optsWithGlobals<GlobalOptions>();
      // One server per SQLite file (several share a PostgreSQL database on purpose): the lock is
      // taken before the database is opened or migrated, and held until the process ends.
      const env = readEnvironment(global.envFile);
      const config = loadConfig(env, { host: options.host, port: options.port, dev: options.dev, ...databaseOverrides(global) });
      const { database } = config;
      // Never a new database at the default path beside an existing one (src/cli/new-database.ts),
      // checked before the lock file is made beside it.
      const created = database.engine === 'sqlite' && options.migrate && !fs.existsSync(database.path);
      if (database.engine === 'sqlite' && options.migrate) refuseNewDatabaseBesideAnother(database.path, env, databaseOverrides(global));
      let lock: HeldLock | undefined;
      if (database.engine === 'sqlite' && fs.existsSync(path.dirname(database.path))) lock = await lockDatabaseFile(database.path, 'serve', packageVersion());
      // While migrations run (or another process migrates a PostgreSQL database), the address already
      // answers readiness with 503 (src/http/starting.ts); the server takes it over afterwards.
      let starting: StartingListener | undefined;
      let ctx: AppContext;
      try {
        if (options.migrate) {
          const { listenWhileStarting } = await import('../http/starting.js');
          starting = await listenWhileStarting(config.host, config.port, { version: packageVersion(), commit: buildCommit(), engine: database.engine });
        }
        ctx = await openCommandContext(global, {
          overrides: { host: options.host, port: options.port, dev: options.dev },
          migrate: options.migrate,
          createDatabase: options.migrate,
          logDestination: process.stdout,
        });
      } catch (error) {
        await starting?.close();
        lock?.release();
        throw error;
      }
      // Said once the server runs (a start that fails says only why, on stderr).
      const createdNotice = created
        ? databaseFileNamed(env, databaseOverrides(global))
          ? 'created a new, empty database'
          : 'created a new, empty database at the default path (TIMETRACK_DB is not set)'
        : undefined;
      // Settings are read at start only; without a handler SIGHUP would end the process (exit 129),
      // which Restart=on-failure does not restart.
      process.on('SIGHUP', () => ctx.logger.warn('SIGHUP received and ignored: settings are read at start only; restart to change them'));
      // Loaded here only: no other command pays for Fastify.
      const { runServer } = await import('../http/server.js');
      // A new database's folder exists only now.
      if (ctx.config.database.engine === 'sqlite' && !lock) lock = await lockDatabaseFile(ctx.config.database.path, 'serve', packageVersion());
      // A database made just now is there to lock itself only now (src/db/file-lock.ts).
      await lock?.holdDatabaseFile();
      try {
        await runServer(ctx, { version: packageVersion(), commit: buildCommit(), starting, createdNotice });
      } catch (error) {
        // A start that failed (a port in use, say) must not leave the process alive on the database
        // pool's open connections (PostgreSQL): close it, then report.
        await starting?.close();
        await ctx.close().catch(() => undefined);
        throw error;
      } finally {
        lock?.release();
      }
    });
}
