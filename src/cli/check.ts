// `timetrack check`: what an operator wants to know before and after a change. Each check prints one
// line; any problem makes the command fail, naming how many there were.
import { NO_ADMIN_NOTICE } from '../auth/accounts/roles.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config/index.js';
import { secretFilePath, secretKeyFilePath } from '../auth/secret.js';
import type { SealedSecretCounts } from '../auth/two-factor/index.js';
import { migrationStatus } from '../db/migrate.js';
import { databaseOverrides, readEnvironment, withCommandContext, type GlobalOptions } from './command-context.js';
import { describeFailure } from './errors.js';
import { passwdName } from './file-owner.js';
import { printJson, printLines } from './output.js';
import { writableByOthers } from './writable-paths.js';

interface CheckResult {
  check: string;
  ok: boolean;
  detail: string;
  /** Worth a look, not a problem: check still passes. */
  warning?: boolean;
}

/** A user's name from /etc/passwd, or `uid N`. */
function userName(uid: number): string {
  return passwdName(uid) ?? `uid ${uid}`;
}

/**
 * The service's user: the owner of the database's folder (systemd's StateDirectory= makes it the
 * service user's), not whoever runs check (root, often).
 */
function serviceOwner(dbPath: string): { uid: number; gid: number; name: string } | undefined {
  const stat = fs.statSync(path.dirname(dbPath), { throwIfNoEntry: false });
  return stat ? { uid: stat.uid, gid: stat.gid, name: userName(stat.uid) } : undefined;
}

/** Owner and mode of one of the service's files: private to the service's user; the fix as a command. */
function fileCheck(file: string, label: string, owner: { uid: number; gid: number; name: string } | undefined): CheckResult | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const mode = stat.mode & 0o777;
  const writable = writableByOthers(file);
  const problems = [
    ...(writable ? [writable.detail] : mode & 0o077 ? [`mode ${mode.toString(8)} lets other users read it (fix: chmod 600 ${file})`] : []),
    ...(owner && stat.uid !== owner.uid
      ? [
          `owned by ${userName(stat.uid)}, not by ${owner.name} (the owner of its folder, the service's user), who cannot write it (fix: chown ${owner.name}: ${file})`,
        ]
      : []),
  ];
  return {
    check: label,
    ok: problems.length === 0,
    detail: problems.length ? problems.join('; ') : `${file} mode ${mode.toString(8)}, owner ${userName(stat.uid)}`,
  };
}

/** Who may write a folder of the service (the database's, the backups'): a problem or a warning naming the fix; undefined when only its owner may. */
function folderCheck(folder: string, label: string): CheckResult | undefined {
  const finding = writableByOthers(folder);
  if (!finding) return undefined;
  return { check: label, ok: finding.level === 'warning', warning: finding.level === 'warning', detail: finding.detail };
}

/** Where the signing secret comes from; a generated one whose file is missing is a problem: every session ends at the next start. */
function secretCheck(config: Config, dbPath: string | undefined, activeSessions: number | undefined): CheckResult {
  if (config.jwtSecret) return { check: 'secret', ok: true, detail: 'JWT_SECRET from the settings' };
  const file = secretFilePath(dbPath ?? '');
  if (!fs.existsSync(file) && activeSessions === 0) return { check: 'secret', ok: true, detail: `${file} is made at the first start (no session exists yet)` };
  if (!fs.existsSync(file)) {
    return {
      check: 'secret',
      ok: false,
      detail: `no JWT_SECRET and no ${file}: the next start generates a new secret and every session ends (restore the file, or set JWT_SECRET)`,
    };
  }
  return { check: 'secret', ok: true, detail: `generated, kept in ${file}` };
}

/** The sealing key of two-factor secrets, and whether every sealed secret opens under this server's keys. */
function sealedSecretsCheck(config: Config, counts: SealedSecretCounts | undefined): CheckResult {
  const source = config.secretKey
    ? 'SECRET_KEY from the settings'
    : config.database.engine === 'sqlite'
      ? fs.existsSync(secretKeyFilePath(config.database.path))
        ? `generated, kept in ${secretKeyFilePath(config.database.path)}`
        : `${secretKeyFilePath(config.database.path)} is made at the first start`
      : 'no SECRET_KEY: derived from JWT_SECRET';
  // A warning, not a problem: PostgreSQL without SECRET_KEY works as before (the key of JWT_SECRET).
  const warning =
    config.database.engine === 'postgres' && !config.secretKey
      ? '; SECRET_KEY should be set: a new JWT_SECRET would make every two-factor secret unreadable (docs/operations.md, "Moving to PostgreSQL")'
      : '';
  const problems =
    counts && counts.notOpening > 0
      ? [
          `${counts.notOpening} of ${counts.total} sealed two-factor secrets do not open with this server's keys: set SECRET_KEY to the key they were sealed with (their accounts sign in with a recovery code only until then)`,
        ]
      : [];
  const opened = counts
    ? `; ${counts.total - counts.notOpening} of ${counts.total} sealed secrets open${counts.old > 0 ? ` (${counts.old} re-sealed at the next start)` : ''}`
    : '';
  return { check: 'secret key', ok: problems.length === 0, detail: problems.length ? problems.join('; ') : `${source}${opened}${warning}` };
}

function access(file: string, mode: number): boolean {
  try {
    fs.accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

async function smtpCheck(config: Config): Promise<CheckResult> {
  if (!config.smtp) return { check: 'smtp', ok: false, detail: 'no SMTP_HOST: reset e-mails are not sent' };
  const { default: nodemailer } = await import('nodemailer');
  const { host, port, user, password } = config.smtp;
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: port === 465,
    auth: user ? { user, pass: password ?? '' } : undefined,
    connectionTimeout: 10_000,
  });
  try {
    await transport.verify();
    return { check: 'smtp', ok: true, detail: `${host}:${port} accepts the connection${user ? ' and the login' : ''}` };
  } catch (error) {
    return { check: 'smtp', ok: false, detail: `${host}:${port}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    transport.close();
  }
}

async function runChecks(global: GlobalOptions, options: { smtp?: boolean; backupFolder?: string }): Promise<CheckResult[]> {
  let config: Config;
  try {
    config = loadConfig(readEnvironment(global.envFile), databaseOverrides(global));
  } catch (error) {
    if (error instanceof ConfigError) return [{ check: 'configuration', ok: false, detail: error.message }];
    throw error;
  }
  const results: CheckResult[] = [{ check: 'configuration', ok: true, detail: 'every setting is valid' }];
  let activeSessions: number | undefined;
  let sealed: SealedSecretCounts | undefined;
  const { database } = config;
  const dbPath = database.engine === 'sqlite' ? database.path : undefined;
  if (dbPath !== undefined && !fs.existsSync(dbPath)) {
    results.push({
      check: 'database',
      ok: false,
      detail: `no database at ${dbPath}; is TIMETRACK_DB right? (\`timetrack migrate\` or the first start of serve creates it)`,
    });
    // No database, no session: a missing secret file ends none (a fresh install before its first start).
    activeSessions = 0;
  } else {
    // Files first: opening the database may create -wal and -shm.
    if (dbPath !== undefined) {
      const owner = serviceOwner(dbPath);
      const folderProblems = [
        ...(access(path.dirname(dbPath), fs.constants.W_OK)
          ? []
          : [`${path.dirname(dbPath)} is not writable by ${userName(process.geteuid?.() ?? -1)} (the -wal and -shm files are made there)`]),
      ];
      if (folderProblems.length) results.push({ check: 'database folder', ok: false, detail: folderProblems.join('; ') });
      const folder = folderCheck(path.dirname(dbPath), 'database folder');
      if (folder) results.push(folder);
      const files = [
        fileCheck(dbPath, 'database file', owner),
        fileCheck(`${dbPath}-wal`, 'WAL file', owner),
        fileCheck(`${dbPath}-shm`, 'shared-memory file', owner),
        fileCheck(secretFilePath(dbPath), 'secret file', owner),
        fileCheck(secretKeyFilePath(dbPath), 'secret key file', owner),
      ];
      results.push(...files.filter((result): result is CheckResult => result !== undefined));
    }
    // A database that cannot be opened is one finding more, never the end of the report.
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
        if (problems.length === 0) activeSessions = (await ctx.services.accountAdmin.listAccounts()).reduce((sum, account) => sum + account.active_sessions, 0);
        if (problems.length === 0) sealed = await ctx.services.twoFactor.countSealedSecrets();
        if (problems.length === 0 && !(await ctx.services.people.hasActiveAdmin()))
          results.push({ check: 'admin', ok: true, warning: true, detail: NO_ADMIN_NOTICE });
      },
      // check may run as another user (root): it creates no generated secret file.
      { skipSchemaCheck: true, generateSecrets: false },
    ).catch((error: unknown) => {
      const failure = describeFailure(error);
      const reason = failure?.message ?? (error instanceof Error ? error.message : String(error));
      results.push({ check: 'database', ok: false, detail: `cannot be opened by ${userName(process.geteuid?.() ?? -1)}: ${reason}` });
    });
  }
  results.push(secretCheck(config, dbPath, activeSessions));
  results.push(sealedSecretsCheck(config, sealed));
  if (options.backupFolder !== undefined) {
    const folder = path.resolve(options.backupFolder);
    results.push(
      fs.existsSync(folder)
        ? (folderCheck(folder, 'backup folder') ?? { check: 'backup folder', ok: true, detail: `${folder} is writable by its owner only` })
        : { check: 'backup folder', ok: false, detail: `no folder ${folder} (mkdir -m 700 ${folder})` },
    );
  }
  if (options.smtp) results.push(await smtpCheck(config));
  return results;
}

export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('check the configuration, the database (integrity, migrations), owner and mode of its files, the secret, and SMTP with --smtp')
    .option('--smtp', 'also connect (and log in) to the SMTP server')
    .option('--backup-folder <folder>', 'also check that only its owner can write the folder of the backups')
    .action(async (options: { smtp?: boolean; backupFolder?: string }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const results = await runChecks(global, options);
      if (global.json) printJson({ checks: results });
      else printLines(...results.map((r) => `${r.warning ? 'WARNING' : r.ok ? 'ok     ' : 'PROBLEM'} ${r.check}: ${r.detail}`));
      const problems = results.filter((r) => !r.ok).length;
      if (problems > 0) throw new ConfigError(`check found ${problems} problem(s)`);
    });
}
