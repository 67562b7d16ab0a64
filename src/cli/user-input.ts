// Gathers the fields of `user create`: flags first, then the password from stdin (--password-stdin),
// then, only on a terminal, prompts for the rest. Without a terminal a missing field fails at once:
// a command run from a script must never wait for input that cannot come.
import type { NewAccountInput } from '../auth/accounts/accounts.js';
import { ServiceError } from '../common/errors.js';
import { checkNewPassword } from '../auth/passwords/policy.js';
import { normalizeEmail, normalizeFullName, normalizeUsername } from '../auth/accounts/fields.js';
import { UsageError } from './errors.js';

export interface AccountFlags {
  email?: string;
  name?: string;
  username?: string;
  passwordStdin?: boolean;
}

const MAX_CONFIRMATION_TRIES = 3;

/**
 * Prompts write to stderr, never stdout: `timetrack --json user create > out.json` asks on the
 * screen and leaves only the JSON in the file.
 */
const PROMPT_CONTEXT = { output: process.stderr };

/** An answer checked when it is given: `true`, or the sentence shown under the prompt. */
async function checked(check: () => unknown): Promise<true | string> {
  try {
    await check();
    return true;
  } catch (error) {
    if (error instanceof ServiceError) return error.message;
    throw error;
  }
}

/** Whether an e-mail address or username already names an account (asked while the person types, not after the passwords). */
export type EmailTakenCheck = (emailOrUsername: string) => Promise<boolean>;

/**
 * Exactly one line: the trailing newline of `echo` or `printf '%s\n'` is not part of the password,
 * and anything after it (a second line, an embedded newline) is refused rather than kept.
 */
async function readPasswordFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const line = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (/[\r\n]/.test(line)) {
    throw new UsageError('--password-stdin reads exactly one line, and standard input held more: give the password alone, on one line');
  }
  return line;
}

async function promptForPassword(): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  for (let attempt = 1; attempt <= MAX_CONFIRMATION_TRIES; attempt += 1) {
    const first = await password({ message: 'Password (8 to 256 characters):', validate: (value) => checked(() => checkNewPassword(value)) }, PROMPT_CONTEXT);
    const second = await password({ message: 'Password again:' }, PROMPT_CONTEXT);
    if (first === second) return first;
    process.stderr.write('The two passwords differ; try again.\n');
  }
  throw new ServiceError('VALIDATION_ERROR', 'the two passwords differed three times; nothing was changed');
}

/** The new password of `user set-password`: from stdin with --password-stdin, else asked (hidden) on a terminal. */
export async function askForNewPassword(flags: { passwordStdin?: boolean }): Promise<string> {
  // On a terminal, --password-stdin asks (hidden, twice) instead of echoing what is typed.
  if (flags.passwordStdin && process.stdin.isTTY) return promptForPassword();
  if (flags.passwordStdin) return readPasswordFromStdin();
  if (!process.stdin.isTTY) {
    throw new UsageError('standard input is not a terminal, so nothing can be asked: give --password-stdin with the password on standard input');
  }
  return promptForPassword();
}

export async function askForMissingAccountFields(flags: AccountFlags, isEmailTaken: EmailTakenCheck): Promise<NewAccountInput> {
  // With --password-stdin on a terminal, the password is asked without echo like the rest.
  if (flags.passwordStdin && process.stdin.isTTY) return askOnTerminal(flags, isEmailTaken, true);
  const interactive = Boolean(process.stdin.isTTY) && !flags.passwordStdin;
  if (!interactive) {
    const missing = [
      flags.email === undefined && '--email',
      flags.name === undefined && '--name',
      !flags.passwordStdin && '--password-stdin (with the password on standard input)',
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new UsageError(`standard input is not a terminal, so nothing can be asked: missing ${missing.join(', ')}`);
    }
    return { email: flags.email!, full_name: flags.name!, username: flags.username ?? null, password: await readPasswordFromStdin() };
  }
  return askOnTerminal(flags, isEmailTaken, false);
}

async function askOnTerminal(flags: AccountFlags, isEmailTaken: EmailTakenCheck, passwordOnly: boolean): Promise<NewAccountInput> {
  if (passwordOnly) {
    const missing = [flags.email === undefined && '--email', flags.name === undefined && '--name'].filter(Boolean);
    if (missing.length > 0) throw new UsageError(`--password-stdin asks only for the password: missing ${missing.join(', ')}`);
    return { email: flags.email!, full_name: flags.name!, username: flags.username ?? null, password: await promptForPassword() };
  }
  const { input } = await import('@inquirer/prompts');
  const email =
    flags.email ??
    (await input(
      {
        message: 'E-mail address:',
        required: true,
        validate: (value) =>
          checked(async () => {
            if (await isEmailTaken(normalizeEmail(value))) throw new ServiceError('EMAIL_TAKEN', 'An account with this e-mail address already exists');
          }),
      },
      PROMPT_CONTEXT,
    ));
  const fullName =
    flags.name ?? (await input({ message: 'Full name:', required: true, validate: (value) => checked(() => normalizeFullName(value)) }, PROMPT_CONTEXT));
  const username =
    flags.username ??
    ((
      await input(
        {
          message: 'Username (optional, Enter to skip):',
          validate: (value) =>
            checked(async () => {
              const username = normalizeUsername(value.trim() || null);
              if (username !== null && (await isEmailTaken(username))) throw new ServiceError('USERNAME_TAKEN', 'This username is taken');
            }),
        },
        PROMPT_CONTEXT,
      )
    ).trim() ||
      null);
  return { email, full_name: fullName, username, password: await promptForPassword() };
}
