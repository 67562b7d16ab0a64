// One server per SQLite file, enforced by the operating system: `serve` holds an exclusive flock(2)
// on `<db>.lock` and one on the database file itself for its whole life, and `restore` takes the same
// locks without waiting, so it can never replace a file a server has open. The lock on the database
// file is what a deleted `<db>.lock` cannot release (the file cannot go without the data); `<db>.lock`
// names the holder, and is what servers of earlier versions lock (flock(2) on a file is independent
// of SQLite's own POSIX locks on it). Node has no flock of its own: a small child process
// (util-linux `flock`, which Debian always has) takes the lock and keeps it while its standard input
// is open. When the owner ends in any way (even SIGKILL) the pipe closes, the child exits and the
// kernel releases the lock; nothing stale is left to clean up. The child ignores SIGTERM, SIGINT and
// SIGHUP, so the lock lasts until the owner itself has finished (systemd signals the whole group).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { DatabaseLockedError } from './database.js';

export function lockFileOf(dbPath: string): string {
  return `${dbPath}.lock`;
}

export interface HeldLock {
  /** Also locks the database file itself, if it was not there when the lock was taken (a new database). */
  holdDatabaseFile(): Promise<void>;
  release(): void;
}

/** flock's exit code when the lock is held by another process (--conflict-exit-code). */
const CONFLICT = 75;

/** Who holds the lock of `dbPath`, as it wrote itself into the file; undefined when unreadable. */
export function lockHolder(dbPath: string): { pid: number; what: string; version: string | undefined } | undefined {
  try {
    const text = fs.readFileSync(lockFileOf(dbPath), 'utf8');
    const match = /^(\d+) ([^\n]+)\n(?:version (\S+)\n)?/.exec(text);
    if (match) return { pid: Number(match[1]), what: match[2]!, version: match[3] };
  } catch {
    // Unreadable: nothing to say.
  }
  return undefined;
}

/** Who holds the lock, as the holder wrote it into the file ("timetrack serve (pid 123)"). */
function holderOf(file: string): string {
  try {
    const match = /^(\d+) (\w+)/.exec(fs.readFileSync(file, 'utf8'));
    if (match) return `timetrack ${match[2]} (pid ${match[1]})`;
  } catch {
    // Unreadable: say less.
  }
  return 'another process';
}

/**
 * Takes the exclusive lock of `dbPath` without waiting; throws a DatabaseLockedError naming the
 * holder when another process has it. `what` says who holds it, written into the file for others,
 * with the `version` of a server (`migrate` names it).
 */
export async function lockDatabaseFile(dbPath: string, what: string, version?: string): Promise<HeldLock> {
  // A holder that just died (kill -9) releases its lock once its flock child has seen the pipe
  // close: a few milliseconds. While the process named in the file is gone, wait that long, no more.
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await tryLock(dbPath, what, version);
    } catch (error) {
      if (!(error instanceof DatabaseLockedError) || !(error as DatabaseLockedError & { holderGone?: boolean }).holderGone || attempt >= 30) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Whether the process that wrote the lock file no longer exists. */
function holderGone(file: string): boolean {
  try {
    const pid = Number(/^(\d+)/.exec(fs.readFileSync(file, 'utf8'))?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** A `flock` child holding `file` while this process lives: 'locked', flock's exit code, or the error of starting it. */
async function flockChild(file: string): Promise<{ child: ChildProcess; outcome: 'locked' | number | Error }> {
  const child = spawn(
    'flock',
    ['--exclusive', '--nonblock', '--conflict-exit-code', String(CONFLICT), file, 'sh', '-c', 'trap "" TERM INT HUP; echo locked; exec cat >/dev/null'],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const outcome = await new Promise<'locked' | number | Error>((resolve) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('locked')) resolve('locked');
    });
    child.once('error', (error) => resolve(error));
    child.once('exit', (code) => resolve(code ?? 1));
  });
  return { child, outcome };
}

/** Neither the child nor its pipes keep this process alive; ending its standard input releases the lock. */
function detached(child: ChildProcess): () => void {
  child.unref();
  child.stdout?.destroy();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  (child.stdin as unknown as { _handle?: { unref?: () => void } })._handle?.unref?.();
  return () => child.stdin?.end();
}

/**
 * The database file itself locked, when it is there as a regular file (flock would create a missing
 * one, and follow a symlink); undefined when there is nothing to lock yet.
 */
async function lockTheFileItself(dbPath: string, lockFile: string): Promise<(() => void) | undefined> {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dbPath);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  const { child, outcome } = await flockChild(dbPath);
  if (outcome === 'locked') return detached(child);
  if (outcome === CONFLICT) {
    // <db>.lock is ours by now: the holder of the file itself is one that lost its <db>.lock.
    throw new DatabaseLockedError(
      `another timetrack process is using ${dbPath} (it holds the database file; ${lockFile} was removed while it ran): one server per database file; stop it first`,
    );
  }
  throw new DatabaseLockedError(`cannot lock ${dbPath}: ${outcome instanceof Error ? outcome.message : `flock exited with ${outcome}`}`);
}

async function tryLock(dbPath: string, what: string, version: string | undefined): Promise<HeldLock> {
  const file = lockFileOf(dbPath);
  // Created 0600 and never followed through a symlink.
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR | fs.constants.O_NOFOLLOW, 0o600));
  const { child, outcome } = await flockChild(file);
  if (outcome instanceof Error) {
    throw new DatabaseLockedError(
      `cannot lock ${file}: ${(outcome as NodeJS.ErrnoException).code === 'ENOENT' ? 'the flock command (util-linux) is not installed' : outcome.message}`,
    );
  }
  if (outcome !== 'locked') {
    if (outcome === CONFLICT) {
      const error = new DatabaseLockedError(`${holderOf(file)} is using ${dbPath} (it holds ${file}): one server per database file; stop it first`);
      Object.assign(error, { holderGone: holderGone(file) });
      throw error;
    }
    throw new DatabaseLockedError(`cannot lock ${file} (flock exited with ${outcome})`);
  }
  const releaseBeside = detached(child);
  let releaseFile: (() => void) | undefined;
  try {
    releaseFile = await lockTheFileItself(dbPath, file);
  } catch (error) {
    releaseBeside();
    throw error;
  }
  // Ours now: say who holds it, for the sentence of whoever is refused.
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW);
  // The version on a line of its own: `migrate` names the running version in its refusal.
  fs.writeSync(fd, `${process.pid} ${what}\n${version ? `version ${version}\n` : ''}`);
  fs.closeSync(fd);
  return {
    async holdDatabaseFile() {
      releaseFile ??= await lockTheFileItself(dbPath, file);
    },
    release() {
      releaseFile?.();
      releaseBeside();
    },
  };
}
