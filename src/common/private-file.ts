// Files timetrack writes for an operator (backups, their checksums): created new, mode 0600, and
// written through the one descriptor that created them. O_EXCL with O_CREAT never follows a symlink
// (a planted link fails as "exists"), and O_NOFOLLOW refuses one on every other open, so nothing can
// redirect the write to another file between the create and the write.
import fs from 'node:fs';
import path from 'node:path';

export class PrivateFileError extends Error {
  override name = 'PrivateFileError';
}

/** Creates `file` (which must not exist), mode 0600; returns its descriptor (also readable with `readable`, so the writer can hash what it wrote). */
export function createPrivateFile(file: string, options: { readable?: boolean } = {}): number {
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) throw new PrivateFileError(`the folder ${dir} does not exist; create it first (mkdir -m 700 ${dir})`);
  try {
    const fd = fs.openSync(
      file,
      fs.constants.O_CREAT | fs.constants.O_EXCL | (options.readable ? fs.constants.O_RDWR : fs.constants.O_WRONLY) | fs.constants.O_NOFOLLOW,
      0o600,
    );
    fs.fchmodSync(fd, 0o600);
    return fd;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) {
      throw new PrivateFileError(`${file} is a symbolic link; refused (give the path of a new file)`);
    }
    throw new PrivateFileError(code === 'EEXIST' ? `${file} exists already; choose a new file name` : `cannot create ${file} (${code ?? 'error'})`);
  }
}

/** Standard output redirected to a file of this user (`… > ann.json`): narrowed to 0600 before anything is written. */
export function narrowRedirectedOutput(): void {
  try {
    const stat = fs.fstatSync(1);
    if (stat.isFile() && stat.uid === process.geteuid?.()) fs.fchmodSync(1, 0o600);
  } catch {
    // Not a file (a pipe, a terminal): nothing to narrow.
  }
}
