// `serve` writes its process id beside the database (<db>.serve.pid) while it runs, so that
// `restore` can refuse to replace a file a server has open. A file left by a server that crashed
// names a process that no longer exists and is ignored.
import fs from 'node:fs';

export function serverPidFile(dbPath: string): string {
  return `${dbPath}.serve.pid`;
}

export function writeServerPid(dbPath: string): void {
  fs.writeFileSync(serverPidFile(dbPath), `${process.pid}\n`, { mode: 0o600 });
}

/** Removes the file if it is still this process's (another server may have started on the same file). */
export function removeServerPid(dbPath: string): void {
  const file = serverPidFile(dbPath);
  try {
    if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file);
  } catch {
    // Already gone.
  }
}

/** The process id of a server that has the database open, if one is running. */
export function runningServerPid(dbPath: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(serverPidFile(dbPath), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to another user (a server run by the service's user).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
