// Process-wide settings that Node reads once, early: bin/timetrack.cjs applies them before it loads
// the application (it is CommonJS because an ES module entry is itself read through libuv's thread
// pool, which would start the pool at its default size before any of our code runs).
import v8 from 'node:v8';
import { hashConcurrencySetting, type Env } from '../config.js';

/**
 * The size of libuv's thread pool, where argon2 runs: as many threads as hashes may run at once.
 * glibc gives each thread its own malloc arena and keeps a freed 19 MiB argon2 block in it, so
 * with libuv's default of four threads an idle server held up to four blocks after a few logins;
 * with the pool sized to the bound it holds at most what the bound already allows at peak.
 * An operator's own UV_THREADPOOL_SIZE wins.
 */
export function threadPoolSize(env: Env): number {
  const chosen = Number(env.UV_THREADPOOL_SIZE);
  if (env.UV_THREADPOOL_SIZE?.trim() && Number.isInteger(chosen) && chosen > 0) return chosen;
  try {
    return hashConcurrencySetting(env);
  } catch {
    // A bad HASH_CONCURRENCY is reported by the command itself, as one line naming the setting.
    return hashConcurrencySetting({});
  }
}

/**
 * Keeps V8's young generation at its initial size (two 1 MiB semi-spaces) instead of letting it
 * double with every burst of surviving objects. Start-up alone (route schemas compiled, the
 * OpenAPI document built) grew it to 16 MiB, which V8 gives back only after seconds of idleness; a
 * JSON API's objects die young, so a small young generation costs a scavenge every few hundred
 * requests and kept `serve` ~12 MiB smaller under load (README, Performance).
 */
const YOUNG_GENERATION_FLAGS = '--semi-space-growth-factor=1';

export function prepareProcess(env: Env = process.env): void {
  process.env.UV_THREADPOOL_SIZE = String(threadPoolSize(env));
  v8.setFlagsFromString(YOUNG_GENERATION_FLAGS);
}
