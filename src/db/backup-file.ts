// The file a backup writes, and the proof that the file reported is the file written. The bytes go
// into a new private file beside the destination (`O_EXCL`, `O_NOFOLLOW`, mode 0600), which is then
// linked to the destination's name (a hard link never replaces anything: a file or symlink planted
// there meanwhile makes it fail) and unlinked. Then the destination is opened again by name with
// `O_NOFOLLOW`, and must be the same inode on the same device as the descriptor written, with the same
// SHA-256: a file swapped for a symlink, or for another file, in a folder others can write is refused
// instead of reported (docs/operations.md, "Backups"). Both engines use it.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createPrivateFile, PrivateFileError } from '../common/private-file.js';
import { BackupError } from './database.js';

/** A new backup file being written: its descriptor and the temporary name it has until installBackupFile. */
export interface BackupFile {
  fd: number;
  /** Whether installBackupFile has closed the descriptor. */
  closed: boolean;
  temp: string;
  target: string;
  /** The inode written (its device and number stay while it is written). */
  stat: fs.Stats;
}

/** Refuses an existing destination (a symlink named as one) and creates the private temporary file beside it. */
export function createBackupFile(target: string): BackupFile {
  const existing = fs.lstatSync(target, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) throw new BackupError(`${target} is a symbolic link; refused (give the path of a new file)`);
  if (existing) throw new BackupError(`${target} exists already; choose a new file name`);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.partial-${randomBytes(6).toString('hex')}`);
  try {
    const fd = createPrivateFile(temp, { readable: true });
    return { fd, closed: false, temp, target, stat: fs.fstatSync(fd) };
  } catch (error) {
    throw error instanceof PrivateFileError ? new BackupError(error.message) : error;
  }
}

/** SHA-256 (hex) and size of everything readable through `fd`, read from its start. */
function digestOf(fd: number): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(1 << 20);
  let bytes = 0;
  for (;;) {
    const read = fs.readSync(fd, buffer, 0, buffer.length, bytes);
    if (read === 0) break;
    hash.update(buffer.subarray(0, read));
    bytes += read;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Whether the name `file` now stands for the inode of `stat`. */
function isSameFile(file: string, stat: fs.Stats): boolean {
  const now = fs.lstatSync(file, { throwIfNoEntry: false });
  return now !== undefined && now.ino === stat.ino && now.dev === stat.dev;
}

/** What link() answers on file systems without hard links: some file systems of backup disks (FAT, some network mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Moves `temp` to `target` without replacing what appeared there: a hard link, then the temporary name
 * removed; where the file system has no hard links, a rename once nothing is at `target` (whatever
 * appears there in between is found by the proof that follows).
 */
function giveName(temp: string, target: string): void {
  try {
    fs.linkSync(temp, target);
    fs.unlinkSync(temp);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new BackupError(`${target} was created by someone else while the backup ran; refused`);
    if (!NO_HARD_LINKS.has(code ?? '') || fs.lstatSync(target, { throwIfNoEntry: false }))
      throw new BackupError(`cannot create ${target} (${code ?? 'error'})`);
  }
  fs.renameSync(temp, target);
}

/**
 * Gives the written file its name and proves it: the destination, opened anew without following a
 * symlink, is the inode written and holds the same bytes (`expected`, when the writer hashed them).
 * Returns the SHA-256 and size. On a refusal the temporary name is removed, and the destination too if
 * it is the file written; a file planted there by someone else is left alone and named.
 */
export function installBackupFile(file: BackupFile, expected?: string): { sha256: string; bytes: number } {
  const { fd, temp, target, stat: written } = file;
  try {
    fs.fsyncSync(fd);
    giveName(temp, target);
    let check: number;
    try {
      check = fs.openSync(target, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const what = code === 'ELOOP' ? 'was replaced by a symbolic link' : `cannot be opened again (${code ?? 'error'})`;
      throw new BackupError(
        `${target} ${what} after it was written: it is not the backup; refused (keep backups in a folder only their owner can write: chmod 700)`,
      );
    }
    try {
      const reopened = fs.fstatSync(check);
      if (reopened.ino !== written.ino || reopened.dev !== written.dev) {
        throw new BackupError(
          `${target} was replaced by another file after it was written: it is not the backup; refused (keep backups in a folder only their owner can write: chmod 700)`,
        );
      }
      const ours = digestOf(fd);
      const theirs = digestOf(check);
      if (ours.sha256 !== theirs.sha256 || (expected !== undefined && expected !== ours.sha256)) {
        throw new BackupError(`${target} does not hold the bytes written (SHA-256 differs); refused`);
      }
      return ours;
    } finally {
      fs.closeSync(check);
    }
  } catch (error) {
    removeBackupFile(file);
    throw error;
  } finally {
    if (!file.closed) fs.closeSync(fd);
    file.closed = true;
  }
}

/** Removes what a failed backup made: its descriptor, the temporary name, and the destination when it is the file written. */
export function removeBackupFile(file: BackupFile): void {
  if (!file.closed) {
    fs.closeSync(file.fd);
    file.closed = true;
  }
  if (isSameFile(file.temp, file.stat)) fs.rmSync(file.temp, { force: true });
  if (isSameFile(file.target, file.stat)) fs.rmSync(file.target, { force: true });
}
