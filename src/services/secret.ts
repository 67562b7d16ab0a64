// The JWT signing secret: JWT_SECRET when set (checked in config.ts), else 256 random bits kept in a
// file beside the database (mode 0600) so that sessions survive restarts.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

export function secretFilePath(dbPath: string): string {
  return `${dbPath}.jwt-secret`;
}

export class SecretFileError extends Error {
  override name = 'SecretFileError';
}

/** Reads the secret file, creating it first if missing (exclusive create: two processes never both write). */
export function loadOrCreateSecret(filePath: string): Uint8Array {
  try {
    fs.writeFileSync(filePath, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const hex = fs.readFileSync(filePath, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new SecretFileError(`JWT secret file ${filePath} is damaged (expected 64 hex characters); delete it to generate a new one (this signs everyone out)`);
  }
  return Buffer.from(hex, 'hex');
}
