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
