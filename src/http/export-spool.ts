// The spool of an HTTP export (docs/security.md, "one user's data as a load"): an export is written
// whole into a temporary file first, and only then sent from that file. Its place (one of
// MAX_CONCURRENT_EXPORTS per process, MAX_EXPORTS_PER_CLIENT per address) and the account's lease
// (src/time/exports.ts) are given back when generation ends, so a client that reads slowly holds a
// file and its own connection, never a place another account needs.
// - The file: mode 0600, made O_EXCL|O_NOFOLLOW in a folder of its own (0700, this user's, checked),
//   named after the process (`<pid>-<random>.spool`), removed when it has been sent, when the client
//   goes away or the sending is cut, and at the start of `serve` when its process is gone.
// - Bounds: at most maxBytes (the largest export the quotas allow, MAX_SPOOL_BYTES), generation at
//   most generationMs; past either the export is refused with 503 BUSY and its file removed. All the
//   spool files of a process together hold at most maxHeldBytes (MAX_HELD_SPOOL_BYTES): an export
//   that would pass it is refused the same way, so many accounts exporting at once cannot fill the
//   disk the spool shares with others.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceError } from '../common/errors.js';
import { NOTE_MAX_LENGTH, MAX_ENTRIES_PER_USER } from '../time/entries/rules.js';
import { MAX_ABSENCES_PER_USER } from '../time/absences/absences.js';
import { MAX_BOOKINGS_PER_USER } from '../time/bookings.js';

/** The most bytes one row of an export takes besides its note (ids, times, dates, names, JSON). */
const ROW_BYTES_BESIDES_NOTE = 200;
/** The most bytes a note's character takes: a control character escaped in JSON (`\u0001`). */
const BYTES_PER_NOTE_CHARACTER = 6;
/** The account's fields, settings, schedules and zone history. */
const HEAD_BYTES = 1024 * 1024;
/**
 * The largest export the quotas allow (about 435 MB: every entry, absence and booking with a note of
 * NOTE_MAX_LENGTH escaped characters); an export beyond it is refused.
 */
export const MAX_SPOOL_BYTES =
  (MAX_ENTRIES_PER_USER + MAX_ABSENCES_PER_USER + MAX_BOOKINGS_PER_USER) * (ROW_BYTES_BESIDES_NOTE + BYTES_PER_NOTE_CHARACTER * NOTE_MAX_LENGTH) + HEAD_BYTES;
/** The longest an export may take to be written into its file (a full account: seconds). */
export const EXPORT_GENERATION_MS = 5 * 60_000;
/** The longest the sending of a spooled export may take (a full account at 1 MB/s: about 7 minutes). */
export const EXPORT_SEND_MS = 10 * 60_000;
/** All spool files of a process at once, written and not yet removed: four of the largest, and room. */
export const MAX_HELD_SPOOL_BYTES = 2 * 1024 ** 3;
/** Seconds a refusal for size or time asks the client to wait. */
const REFUSED_RETRY_SECONDS = 60;

export interface SpoolLimits {
  /** The folder of the spool files (made 0700 if missing). */
  folder: string;
  maxBytes: number;
  /** The bytes all spool files of this process may hold at once. */
  maxHeldBytes: number;
  /** What they hold now (one counter per application: the spools of one process share it). */
  held: { bytes: number };
  generationMs: number;
  sendMs: number;
}

/** A folder of this user's own in the system's temporary folder (TMPDIR; systemd's PrivateTmp gives each service its own). */
export function defaultSpoolFolder(): string {
  return path.join(os.tmpdir(), `timetrack-exports-${process.getuid?.() ?? 'user'}`);
}

export function defaultSpoolLimits(): SpoolLimits {
  return {
    folder: defaultSpoolFolder(),
    maxBytes: MAX_SPOOL_BYTES,
    maxHeldBytes: MAX_HELD_SPOOL_BYTES,
    held: { bytes: 0 },
    generationMs: EXPORT_GENERATION_MS,
    sendMs: EXPORT_SEND_MS,
  };
}

/** Makes the folder (0700) or checks the one there: a directory, not a link, this user's, closed to others. */
async function ensureFolder(folder: string): Promise<void> {
  await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
  const stat = await fs.promises.lstat(folder);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
    throw new Error(`the export spool folder ${folder} must be a directory of this user's with mode 0700`);
  }
}

/** A spooled export: its file, open for reading, its size, and its share of the process's spool. */
export interface Spooled {
  file: string;
  handle: fs.promises.FileHandle;
  bytes: number;
  /** Gives the file's bytes back to the process's count; only the first call counts. */
  release: () => void;
}

/** Closes and removes a spool file and gives its bytes back; safe to call twice. */
export async function discardSpooled(spooled: Pick<Spooled, 'file' | 'handle' | 'release'>): Promise<void> {
  spooled.release();
  await spooled.handle.close().catch(() => undefined);
  await fs.promises.rm(spooled.file, { force: true }).catch(() => undefined);
}

/**
 * Writes the pieces into a new spool file and answers it, open, once the pieces are done (the export's
 * place and lease are then given back). Refused with BUSY past maxBytes or generationMs; stopped when
 * `gone` is aborted (the client went away). On any failure the file is removed.
 */
export async function spoolPieces(pieces: AsyncIterable<string>, limits: SpoolLimits, gone: AbortSignal, now: () => number = Date.now): Promise<Spooled> {
  await ensureFolder(limits.folder);
  const file = path.join(limits.folder, `${process.pid}-${randomBytes(9).toString('base64url')}.spool`);
  const { O_CREAT, O_EXCL, O_RDWR, O_NOFOLLOW } = fs.constants;
  const handle = await fs.promises.open(file, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW, 0o600);
  const started = now();
  let bytes = 0;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    limits.held.bytes -= bytes;
  };
  try {
    for await (const piece of pieces) {
      if (gone.aborted) throw new ServiceError('BUSY', 'The client went away', REFUSED_RETRY_SECONDS);
      const buffer = Buffer.from(piece, 'utf8');
      bytes += buffer.length;
      limits.held.bytes += buffer.length;
      if (bytes > limits.maxBytes) {
        throw new ServiceError('BUSY', `The export is larger than this server sends (${limits.maxBytes} bytes)`, REFUSED_RETRY_SECONDS);
      }
      if (limits.held.bytes > limits.maxHeldBytes) {
        throw new ServiceError('BUSY', 'The server is preparing and sending other exports; try again later', REFUSED_RETRY_SECONDS);
      }
      if (now() - started > limits.generationMs) {
        throw new ServiceError(
          'BUSY',
          `The export took longer than ${Math.round(limits.generationMs / 1000)} s to prepare; try again later`,
          REFUSED_RETRY_SECONDS,
        );
      }
      await handle.write(buffer, 0, buffer.length, null);
    }
  } catch (error) {
    await discardSpooled({ file, handle, release });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT')
      throw new ServiceError('BUSY', 'The server has no room to prepare the export; try again later', REFUSED_RETRY_SECONDS);
    throw error;
  }
  return { file, handle, bytes, release };
}

/**
 * At the start of `serve`: removes the spool files of processes that are gone (and any with this
 * process's id, which has none yet), left by a crash or a kill. Answers how many were removed.
 */
export async function removeSpoolLeftovers(folder: string): Promise<number> {
  let names: string[];
  try {
    names = await fs.promises.readdir(folder);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(/^(\d+)-[\w-]+\.spool$/.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || (pid !== process.pid && isAlive(pid))) continue;
    await fs.promises.rm(path.join(folder, name), { force: true });
    removed += 1;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that id; the file is not its, but leave it.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
