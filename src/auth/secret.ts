// The generated secrets of a SQLite install, each kept in a file beside the database (mode 0600) so
// that it survives restarts (docs/security.md):
// - the session-signing secret (`<db>.jwt-secret`), unless JWT_SECRET is set;
// - the sealing key of the two-factor secrets (`<db>.secret-key`), unless SECRET_KEY is set.
// Each file holds 64 hex characters. PostgreSQL has no such files: the settings are required there
// (JWT_SECRET) or recommended (SECRET_KEY; src/config/).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

/** The generated secrets: the file's suffix beside the database, and the setting that replaces it. */
export const GENERATED_SECRETS = {
  jwt: { suffix: '.jwt-secret', setting: 'JWT_SECRET', label: 'JWT secret file', ifDamaged: 'delete it to generate a new one (this signs everyone out)' },
  sealing: {
    suffix: '.secret-key',
    setting: 'SECRET_KEY',
    label: 'secret key file',
    ifDamaged: 'restore it from a backup (a new one does not open the two-factor secrets sealed under it)',
  },
} as const;

export type GeneratedSecret = keyof typeof GENERATED_SECRETS;

export function secretFilePath(dbPath: string, which: GeneratedSecret = 'jwt'): string {
  return `${dbPath}${GENERATED_SECRETS[which].suffix}`;
}

/** The file of the sealing key of two-factor secrets, beside a SQLite database. */
export function secretKeyFilePath(dbPath: string): string {
  return secretFilePath(dbPath, 'sealing');
}

export class SecretFileError extends Error {
  override name = 'SecretFileError';
}

/**
 * Reads a secret file, creating it first if missing, and answers its 64 hex characters. The secret
 * is written to a private temporary file that is then hard-linked into place: the link fails if the
 * file exists, so two processes that start together never both write, and neither ever reads a
 * half-written file.
 */
export function loadOrCreateSecretText(filePath: string, which: GeneratedSecret = 'jwt'): string {
  const { label, ifDamaged } = GENERATED_SECRETS[which];
  if (!fs.existsSync(filePath)) {
    const temporary = `${filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      fs.writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      fs.linkSync(temporary, filePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new SecretFileError(`cannot create the ${label} ${filePath} (${code ?? String(error)})`);
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  // A copy or restore may have widened the mode: the secret must stay readable by this user only.
  if ((fs.statSync(filePath).mode & 0o077) !== 0) fs.chmodSync(filePath, 0o600);
  const hex = fs.readFileSync(filePath, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new SecretFileError(`${label} ${filePath} is damaged (expected 64 hex characters); ${ifDamaged}`);
  }
  return hex;
}

/** The session-signing secret of the file: the 32 bytes its hex stands for. */
export function loadOrCreateSecret(filePath: string): Uint8Array {
  return Buffer.from(loadOrCreateSecretText(filePath), 'hex');
}

/**
 * The sealing key of the file, as the bytes SECRET_KEY would give: the text itself (not the bytes it
 * stands for), so that `SECRET_KEY=<the file's contents>` on another install seals and opens alike.
 */
export function loadOrCreateSecretKey(filePath: string): Uint8Array {
  return new TextEncoder().encode(loadOrCreateSecretText(filePath, 'sealing'));
}

/** The sealing key of the file if it exists (a check must not create one), else undefined. */
export function loadExistingSecretKey(filePath: string): Uint8Array | undefined {
  return fs.existsSync(filePath) ? loadOrCreateSecretKey(filePath) : undefined;
}

/** Where the sealing key of two-factor secrets comes from: SECRET_KEY, the generated file, or (PostgreSQL without SECRET_KEY) the session secret. */
export type SealingKeySource = { kind: 'setting' } | { kind: 'file'; file: string } | { kind: 'session-secret' };

export function sealingKeySource(secretKeySet: boolean, dbPath: string | undefined): SealingKeySource {
  if (secretKeySet) return { kind: 'setting' };
  return dbPath === undefined ? { kind: 'session-secret' } : { kind: 'file', file: secretKeyFilePath(dbPath) };
}

/**
 * The keys of the two-factor secrets (./secret-box.ts): SECRET_KEY, or on SQLite the generated
 * `<db>.secret-key`; on PostgreSQL without SECRET_KEY none (the session secret's key seals, as
 * before). `generate: false` (`timetrack check`, which may run as another user) creates no file: a
 * missing one is a key nothing was sealed under.
 */
export function sealingKeyLoaders(given: {
  secretKey: Uint8Array | undefined;
  jwtSecret: Uint8Array | undefined;
  dbPath: string | undefined;
  generate: boolean;
  loadSessionSecret: () => Uint8Array;
}): { sealingSecret: () => Uint8Array | undefined; sessionSecret: () => Uint8Array } {
  const { secretKey, jwtSecret, dbPath, generate, loadSessionSecret } = given;
  if (secretKey !== undefined || dbPath === undefined) return { sealingSecret: () => secretKey, sessionSecret: loadSessionSecret };
  const keyFile = secretKeyFilePath(dbPath);
  if (generate) return { sealingSecret: () => loadOrCreateSecretKey(keyFile), sessionSecret: loadSessionSecret };
  const sessionFile = secretFilePath(dbPath);
  return {
    sealingSecret: () => loadExistingSecretKey(keyFile),
    // Random bytes: a key nothing opens under, without creating the missing file.
    sessionSecret: () => (jwtSecret === undefined && !fs.existsSync(sessionFile) ? randomBytes(32) : loadSessionSecret()),
  };
}
