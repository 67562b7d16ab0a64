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
 * V8 sized for a small server, favouring memory over speed where a JSON API loses little:
 * - the young generation stays at its initial size (two 1 MiB semi-spaces) instead of doubling with
 *   every burst of surviving objects: start-up alone (route schemas compiled, the OpenAPI document
 *   built) grew it to 16 MiB, given back only after seconds of idleness. A JSON API's objects die
 *   young, so this costs a scavenge every few hundred requests.
 * - --optimize-for-size makes the old generation grow in smaller steps between full collections
 *   (under the /me load its peak went from ~30 to ~21 MiB for a live set of ~12 MiB).
 * Measured under the bench's /me load: ~12 MiB less resident, throughput within run-to-run noise
 * (README, Performance).
 */
const V8_MEMORY_FLAGS = '--semi-space-growth-factor=1 --optimize-for-size';

export function applyV8MemorySettings(): void {
  v8.setFlagsFromString(V8_MEMORY_FLAGS);
}

export function prepareProcess(env: Env = process.env): void {
  process.env.UV_THREADPOOL_SIZE = String(threadPoolSize(env));
  applyV8MemorySettings();
}
