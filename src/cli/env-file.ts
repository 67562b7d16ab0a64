// The env file is read by two programs: systemd (EnvironmentFile=) for the service, and
// `timetrack --env-file` for the admin commands. Lines the two would read differently are refused,
// so that a command never acts with settings the service does not have; so are names that are not
// settings (a misspelt REGISTRATON would leave registration open, silently).
import fs from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError, likelySettingFor, PROCESS_SETTING_NAMES, SETTING_NAMES, type Env } from '../config/index.js';

const KNOWN_NAMES = new Set<string>([...SETTING_NAMES, ...PROCESS_SETTING_NAMES]);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

function notASetting(name: string, maxEdits: number): string {
  const suggestion = likelySettingFor(name, maxEdits);
  return `${name} is not a setting${suggestion ? `; did you mean ${suggestion}?` : ' (docs/configuration.md lists them)'}`;
}

/** Why systemd and --env-file would read this line differently, or why it is no setting; undefined when fine. */
function lineProblem(line: string): string | undefined {
  const text = line.trim();
  if (text === '' || text.startsWith('#')) return undefined;
  if (text.startsWith(';')) return 'systemd reads a line starting with ";" as a comment, --env-file does not; use "#"';
  if (/^export\s/.test(text)) return '"export" is not understood by systemd; write NAME=value';
  const match = ASSIGNMENT.exec(text);
  if (!match) return 'is not NAME=value (no spaces around "=")';
  const [, name = '', value = ''] = match;
  if (!KNOWN_NAMES.has(name)) return notASetting(name, 3);
  const quote = value[0];
  if (quote === '"' || quote === "'") {
    if (value.length < 2 || !value.endsWith(quote)) return 'a quoted value must end on the same line with the same quote';
    if (value.includes('\\')) return 'systemd and --env-file read backslashes in quotes differently; leave the value unquoted';
    return undefined;
  }
  if (/\s#/.test(value)) return 'a "#" after the value is a comment to --env-file but part of the value to systemd; put comments on lines of their own';
  if (value.endsWith('\\')) return 'systemd joins a line ending in "\\" with the next one, --env-file does not';
  return undefined;
}

/** The settings of an env file, after checking every line; every problem is reported at once. */
export function readEnvFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`--env-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const problems = text
    .split(/\r?\n/)
    .map((line, index) => {
      const problem = lineProblem(line);
      return problem && `${file} line ${index + 1}: ${problem}`;
    })
    .filter((problem): problem is string => problem !== undefined);
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return parseEnv(text) as Record<string, string>;
}

/** Names in the environment one or two letters off a setting: most likely a setting that will be missed. */
export function misspelledEnvironmentNames(env: Env): Array<{ name: string; suggestion: string }> {
  return Object.keys(env)
    .filter((name) => name.length >= 6 && !KNOWN_NAMES.has(name))
    .flatMap((name) => {
      const suggestion = likelySettingFor(name);
      return suggestion ? [{ name, suggestion }] : [];
    });
}

/** The env file the systemd units read (config/timetrack.service, config/timetrack@.service). */
const SERVICE_ENV_FILE = '/etc/timetrack/timetrack.env';

/** The global options that choose the settings' source. */
interface SettingsOptions {
  envFile?: string;
  db?: string;
  databaseUrl?: string;
}

/**
 * The env file a command reads when it is given none: the service's, so that `timetrack user list`
 * at a shell acts on the service's database. Only when nothing names a database (no --db,
 * --database-url, TIMETRACK_DB or DATABASE_URL), outside the unit, and the file can be read. TIMETRACK_ENV_FILE names
 * another file in its place (tests, an install elsewhere); it is no setting, so no env file holds it.
 */
function serviceEnvFile(env: Env, options: SettingsOptions): string | undefined {
  const named = (value: string | undefined) => value !== undefined && value.trim() !== '';
  if (options.envFile !== undefined || named(options.db) || named(options.databaseUrl)) return undefined;
  if (named(env.TIMETRACK_DB) || named(env.DATABASE_URL)) return undefined;
  // Under the unit (systemd sets STATE_DIRECTORY) the environment already is the env file.
  if (named(env.STATE_DIRECTORY)) return undefined;
  const file = named(env.TIMETRACK_ENV_FILE) ? env.TIMETRACK_ENV_FILE! : SERVICE_ENV_FILE;
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

/** The command's settings source, as a program's global option values. */
interface ProgramOptions {
  opts(): SettingsOptions;
  setOptionValue(key: string, value: unknown): unknown;
}

/**
 * Before a command runs: with no settings source given, the service's env file becomes the command's
 * --env-file, and one line on stderr says so (never for --version or help, which run no command).
 */
export function adoptServiceEnvFile(program: ProgramOptions): void {
  const file = serviceEnvFile(process.env, program.opts());
  if (file === undefined) return;
  program.setOptionValue('envFile', file);
  process.stderr.write(`timetrack: settings from ${file} (no --env-file given, and neither TIMETRACK_DB nor DATABASE_URL is set)\n`);
}
