// serve and migrate create the SQLite file when it is missing. When no TIMETRACK_DB (nor --db) names
// it, a new, empty database at the default path would hide the real one: after an upgrade whose env
// file lacks the TIMETRACK_DB line, the service came up healthy on an empty database and every user
// was told their password was wrong. So a default path is never created while a `timetrack.db`
// already lies where the service keeps its data (systemd's STATE_DIRECTORY; outside systemd, the
// shipped unit's /var/lib/timetrack) or in the working
// directory (each also in its `data/` folder, the default of a service run without the unit's state
// directory).
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, databaseFileNamed, type ConfigOverrides, type Env } from '../config/index.js';

/** The shipped unit's state directory (StateDirectory=timetrack): where an admin command run outside systemd looks too. */
const UNIT_STATE_DIRECTORY = '/var/lib/timetrack';

/** Existing `timetrack.db` files in the state directory and the working directory, other than `chosen`. */
function databasesElsewhere(chosen: string, env: Env): string[] {
  const stateDirectories = (env.STATE_DIRECTORY ?? '').split(':').filter((folder) => folder.trim() !== '');
  const folders = [...(stateDirectories.length > 0 ? stateDirectories : [UNIT_STATE_DIRECTORY]), process.cwd()];
  const candidates = folders.flatMap((folder) => [path.resolve(folder, 'timetrack.db'), path.resolve(folder, 'data/timetrack.db')]);
  return [...new Set(candidates)].filter((file) => file !== chosen && fs.statSync(file, { throwIfNoEntry: false })?.isFile());
}

/**
 * Refuses to create a database at a default path (no TIMETRACK_DB, no --db) while another
 * `timetrack.db` exists in the state or working directory, naming both paths.
 */
export function refuseNewDatabaseBesideAnother(chosen: string, env: Env, overrides: ConfigOverrides): void {
  if (databaseFileNamed(env, overrides) || fs.existsSync(chosen)) return;
  const [found] = databasesElsewhere(chosen, env);
  if (!found) return;
  throw new ConfigError(
    `refusing to create a new, empty database at ${chosen}: TIMETRACK_DB is not set and ${found} already holds a database; ` +
      `set TIMETRACK_DB=${found} in the env file to keep using it (or TIMETRACK_DB=${chosen} to start an empty one)`,
  );
}
