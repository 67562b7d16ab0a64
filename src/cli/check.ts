// `timetrack check`: what an operator wants to know before and after a change. Each check prints one
// line; any problem makes the command fail, naming how many there were.
import fs from 'node:fs';
import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { secretFilePath } from '../auth/secret.js';
import { migrationStatus } from '../db/migrate.js';
import { databaseOverrides, readEnvironment, withCommandContext, type GlobalOptions } from './command-context.js';
import { ownerMismatch } from './file-owner.js';
import { printJson, printLines } from './output.js';

interface CheckResult {
  check: string;
  ok: boolean;
  detail: string;
}

/** Owner and mode of one of the service's files: private to the database's owner. */
function fileCheck(file: string, label: string): CheckResult | undefined {
  if (!fs.existsSync(file)) return undefined;
  const mode = fs.statSync(file).mode & 0o777;
  const mismatch = ownerMismatch(file);
  const problems = [
    ...(mode & 0o077 ? [`mode ${mode.toString(8)} lets other users read it (chmod 600 ${file})`] : []),
    ...(mismatch ? [`owned by another user than the one running check`] : []),
  ];
  return { check: label, ok: problems.length === 0, detail: problems.length ? problems.join('; ') : `${file} mode ${mode.toString(8)}` };
}

async function smtpCheck(config: Config): Promise<CheckResult> {
  if (!config.smtp) return { check: 'smtp', ok: false, detail: 'no SMTP_HOST: reset e-mails are not sent' };
  const { default: nodemailer } = await import('nodemailer');
  const { host, port, user, password } = config.smtp;
  const transport = nodemailer.createTransport({ host, port, secure: port === 465, auth: user ? { user, pass: password ?? '' } : undefined, connectionTimeout: 10_000 });
  try {
    await transport.verify();
    return { check: 'smtp', ok: true, detail: `${host}:${port} accepts the connection${user ? ' and the login' : ''}` };
  } catch (error) {
    return { check: 'smtp', ok: false, detail: `${host}:${port}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    transport.close();
  }
}

async function runChecks(global: GlobalOptions, options: { smtp?: boolean }): Promise<CheckResult[]> {
  let config: Config;
  try {
    config = loadConfig(readEnvironment(global.envFile), databaseOverrides(global));
  } catch (error) {
    if (error instanceof ConfigError) return [{ check: 'configuration', ok: false, detail: error.message }];
    throw error;
  }
  const results: CheckResult[] = [{ check: 'configuration', ok: true, detail: 'every setting is valid' }];
  const { database } = config;
  const dbPath = database.engine === 'sqlite' ? database.path : undefined;
  if (dbPath !== undefined && !fs.existsSync(dbPath)) {
    results.push({ check: 'database', ok: false, detail: `no database at ${dbPath}; is TIMETRACK_DB right?` });
  } else {
    // Files first: opening the database may create -wal and -shm.
    if (dbPath !== undefined) {
      const files = [
        fileCheck(dbPath, 'database file'),
        fileCheck(`${dbPath}-wal`, 'WAL file'),
        fileCheck(`${dbPath}-shm`, 'shared-memory file'),
        fileCheck(secretFilePath(dbPath), 'secret file'),
      ];
      results.push(...files.filter((result): result is CheckResult => result !== undefined));
    }
    await withCommandContext(
      { ...global, force: true },
      async (ctx) => {
        const integrity = await ctx.database.quickCheck();
        const done = ctx.database.engine === 'sqlite' ? 'quick_check ok' : 'every table readable';
        results.push({ check: 'integrity', ok: integrity === 'ok', detail: integrity === 'ok' ? done : integrity });
        const states = await migrationStatus(ctx.db);
        const pending = states.filter((m) => m.state === 'pending').map((m) => m.name);
        const unknown = states.filter((m) => m.state === 'unknown').map((m) => m.name);
        const problems = [
          ...(pending.length ? [`pending: ${pending.join(', ')} (run timetrack migrate)`] : []),
          ...(unknown.length ? [`written by a newer version: ${unknown.join(', ')}`] : []),
        ];
        results.push({ check: 'migrations', ok: problems.length === 0, detail: problems.length ? problems.join('; ') : `${states.length} applied` });
      },
      { skipSchemaCheck: true },
    );
  }
  results.push({
    check: 'secret',
    ok: true,
    detail: config.jwtSecret ? 'JWT_SECRET from the settings' : `generated, kept in ${secretFilePath(dbPath ?? '')}`,
  });
  if (options.smtp) results.push(await smtpCheck(config));
  return results;
}

export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('check the configuration, the database (integrity, migrations), owner and mode of its files, the secret, and SMTP with --smtp')
    .option('--smtp', 'also connect (and log in) to the SMTP server')
    .action(async (options: { smtp?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const results = await runChecks(global, options);
      if (global.json) printJson({ checks: results });
      else printLines(...results.map((r) => `${r.ok ? 'ok     ' : 'PROBLEM'} ${r.check}: ${r.detail}`));
      const problems = results.filter((r) => !r.ok).length;
      if (problems > 0) throw new ConfigError(`check found ${problems} problem(s)`);
    });
}
