// `timetrack check`: folders and files of the service that users other than the service's user can
// write. Whoever can write the database's folder can replace the database, its -wal or the secret
// files by their own; whoever can write a file can change it. Others' write bit is a problem; the
// group's is one when the group is not the owner's own (its primary group, from /etc/passwd). A
// world-writable folder with the sticky bit (/tmp) only lets others add files, not replace the
// owner's: a warning (docs/operations.md, "Checks").
import fs from 'node:fs';

export interface WritableFinding {
  /** `problem`: others can replace or change it; `warning`: a sticky world-writable folder. */
  level: 'problem' | 'warning';
  detail: string;
}

/** The primary group of user `uid` (/etc/passwd), undefined when unknown. */
function primaryGroup(uid: number): number | undefined {
  try {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[2] === String(uid));
    const gid = line?.split(':')[3];
    return gid === undefined ? undefined : Number(gid);
  } catch {
    return undefined;
  }
}

/** What is wrong with who may write `file` (a folder or a file), with the fix as a command; undefined when only its owner may. */
export function writableByOthers(file: string): WritableFinding | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const folder = stat.isDirectory();
  const mode = stat.mode & 0o7777;
  const fix = `chmod ${folder ? 700 : 600} ${file}`;
  const what = folder ? 'folder' : 'file';
  if (mode & 0o002) {
    if (folder && mode & 0o1000) {
      return {
        level: 'warning',
        detail: `the ${what} ${file} (mode ${mode.toString(8)}) is world-writable with the sticky bit: others cannot replace its files but can plant new ones beside them (the -wal, the secret files); keep the database in a folder of its own (mkdir -m 700, or ${fix} if it is one)`,
      };
    }
    return { level: 'problem', detail: `others can write the ${what} ${file} (mode ${mode.toString(8)}) and so replace or change the database (fix: ${fix})` };
  }
  if (mode & 0o020 && stat.gid !== primaryGroup(stat.uid)) {
    return {
      level: 'problem',
      detail: `the group gid ${stat.gid}, not its owner's own group, can write the ${what} ${file} (mode ${mode.toString(8)}) and so replace or change the database (fix: ${fix})`,
    };
  }
  return undefined;
}
