// A command run as another user than the database's owner (root above all) creates files the
// service then cannot open: the -wal and -shm of SQLite, the generated secret. Refused without --force.
import fs from 'node:fs';
import { ConfigError } from '../config/index.js';

/** A user's name from /etc/passwd, or undefined. */
export function passwdName(uid: number): string | undefined {
  try {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[2] === String(uid));
    return line?.split(':')[0];
  } catch {
    // No passwd file: the number says it.
    return undefined;
  }
}

/** Why this process should not touch the database file, or undefined when it may. */
export function ownerMismatch(dbPath: string): string | undefined {
  const uid = process.geteuid?.();
  if (uid === undefined || !fs.existsSync(dbPath)) return undefined;
  const owner = fs.statSync(dbPath).uid;
  if (owner === uid) return undefined;
  const named = (id: number) => (passwdName(id) ? `${passwdName(id)} (uid ${id})` : `uid ${id}`);
  return `${dbPath} belongs to ${named(owner)} but this command runs as ${named(uid)}: files it creates (-wal, -shm, the secret) would belong to uid ${uid} and the service could not open them; run it as the owner (sudo -u ${passwdName(owner) ?? '<user>'} timetrack …)`;
}

export function assertOwnerOrForced(dbPath: string, force: boolean | undefined): void {
  const mismatch = ownerMismatch(dbPath);
  if (mismatch === undefined) return;
  if (!force) throw new ConfigError(`${mismatch}, or pass --force`);
  process.stderr.write(`timetrack: warning: ${mismatch}\n`);
}
