// Gathers the fields of `user create`: flags first, then the password from stdin (--password-stdin),
// then, only on a terminal, prompts for the rest. Without a terminal a missing field fails at once:
// a command run from a script must never wait for input that cannot come.
import type { NewAccountInput } from '../auth/accounts.js';
import { ServiceError } from '../shared/errors.js';
import { checkNewPassword } from '../auth/password-policy.js';
import { UsageError } from './errors.js';

export interface AccountFlags {
  email?: string;
  name?: string;
  username?: string;
  passwordStdin?: boolean;
}

const MAX_CONFIRMATION_TRIES = 3;

async function readPasswordFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One line: the trailing newline of `echo` or `printf '%s\n'` is not part of the password.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function promptForPassword(): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  for (let attempt = 1; attempt <= MAX_CONFIRMATION_TRIES; attempt += 1) {
    const first = await password({
      message: 'Password (8 to 256 characters):',
      validate: async (value) => {
        try {
          await checkNewPassword(value);
          return true;
        } catch (error) {
          return error instanceof ServiceError ? error.message : String(error);
        }
      },
    });
    const second = await password({ message: 'Password again:' });
    if (first === second) return first;
    process.stderr.write('The two passwords differ; try again.\n');
  }
  throw new ServiceError('VALIDATION_ERROR', 'the two passwords differed three times; nothing was changed');
}

/** The new password of `user set-password`: from stdin with --password-stdin, else asked (hidden) on a terminal. */
export async function askForNewPassword(flags: { passwordStdin?: boolean }): Promise<string> {
  if (flags.passwordStdin) return readPasswordFromStdin();
  if (!process.stdin.isTTY) {
    throw new UsageError('standard input is not a terminal, so nothing can be asked: give --password-stdin with the password on standard input');
  }
  return promptForPassword();
}

export async function askForMissingAccountFields(flags: AccountFlags): Promise<NewAccountInput> {
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
  const { input } = await import('@inquirer/prompts');
  const email = flags.email ?? (await input({ message: 'E-mail address:', required: true }));
  const fullName = flags.name ?? (await input({ message: 'Full name:', required: true }));
  const username = flags.username ?? ((await input({ message: 'Username (optional, Enter to skip):' })).trim() || null);
  return { email, full_name: fullName, username, password: await promptForPassword() };
}
