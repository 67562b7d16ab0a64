import { InvalidArgumentError, type Command } from 'commander';
import { packageVersion } from '../version.js';
import { openCommandContext, type GlobalOptions } from './command-context.js';
import { removeServerPid, writeServerPid } from './server-pid.js';

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
    .option('--no-migrate', 'do not apply pending migrations: refuse to start unless the schema is this version\'s')
    .action(async (options: ServeOptions, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const ctx = await openCommandContext(global, {
        overrides: { host: options.host, port: options.port, dev: options.dev },
        migrate: options.migrate,
        createDatabase: options.migrate,
        logDestination: process.stdout,
      });
      // Settings are read at start only; without a handler SIGHUP would end the process (exit 129),
      // which Restart=on-failure does not restart.
      process.on('SIGHUP', () => ctx.logger.warn('SIGHUP received and ignored: settings are read at start only; restart to change them'));
      // Loaded here only: no other command pays for Fastify.
      const { runServer } = await import('../http/server.js');
      // Several processes share a PostgreSQL database on purpose; a SQLite file has one server.
      const pidOf = ctx.config.database.engine === 'sqlite' ? ctx.config.database.path : undefined;
      if (pidOf) writeServerPid(pidOf);
      try {
        await runServer(ctx, { version: packageVersion() });
      } finally {
        if (pidOf) removeServerPid(pidOf);
      }
    });
}
