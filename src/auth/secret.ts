// The JWT signing secret: JWT_SECRET when set (checked in src/config/), else 256 random bits kept in a
// file beside the database (mode 0600) so that sessions survive restarts.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';

export function secretFilePath(dbPath: string): string {
  return `${dbPath}.jwt-secret`;
}

export class SecretFileError extends Error {
  override name = 'SecretFileError';
}

/**
 * Reads the secret file, creating it first if missing. The secret is written to a private temporary
 * file that is then hard-linked into place: the link fails if the file exists, so two processes that
 * start together never both write, and neither ever reads a half-written file.
 */
export function loadOrCreateSecret(filePath: string): Uint8Array {
  if (!fs.existsSync(filePath)) {
    const temporary = `${filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      fs.writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      fs.linkSync(temporary, filePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new SecretFileError(`cannot create the JWT secret file ${filePath} (${code ?? String(error)})`);
    } finally {
      fs.rmSync(temporary, { force: true });
    }
  }
  // A copy or restore may have widened the mode: the secret must stay readable by this user only.
  if ((fs.statSync(filePath).mode & 0o077) !== 0) fs.chmodSync(filePath, 0o600);
  const hex = fs.readFileSync(filePath, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    throw new SecretFileError(`JWT secret file ${filePath} is damaged (expected 64 hex characters); delete it to generate a new one (this signs everyone out)`);
  }
  return Buffer.from(hex, 'hex');
}
