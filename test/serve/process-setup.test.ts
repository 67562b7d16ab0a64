// What bin/timetrack.cjs sets before the application loads (src/cli/launch.ts): libuv's thread pool
// sized to the hashing bound, and V8's young generation kept at its initial size.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultHashConcurrency } from '../../src/config.js';
import { threadPoolSize } from '../../src/cli/launch.js';
import { PROJECT_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

/** Threads of a serve process; libuv starts its whole pool with serve's warm-up hash, before it listens. */
async function threadsOfServe(env: Record<string, string>): Promise<number> {
  const server = await startServer(path.join(makeTempDir(), 'timetrack.db'), env);
  running.push(server);
  return fs.readdirSync(`/proc/${server.process.pid}/task`).length;
}

describe('libuv thread pool', () => {
  it('has as many threads as HASH_CONCURRENCY, unless the operator sets UV_THREADPOOL_SIZE', async () => {
    const [one, three, operatorsFour] = await Promise.all([
      threadsOfServe({ HASH_CONCURRENCY: '1' }),
      threadsOfServe({ HASH_CONCURRENCY: '3' }),
      threadsOfServe({ HASH_CONCURRENCY: '1', UV_THREADPOOL_SIZE: '4' }),
    ]);
    expect(three - one).toBe(2);
    expect(operatorsFour - one).toBe(3);
  });

  it('follows the same HASH_CONCURRENCY rule as the configuration, and never fails on a bad value', () => {
    expect(threadPoolSize({ HASH_CONCURRENCY: '3' })).toBe(3);
    expect(threadPoolSize({})).toBe(defaultHashConcurrency());
    expect(threadPoolSize({ HASH_CONCURRENCY: ' ' })).toBe(defaultHashConcurrency());
    // The command itself reports the bad value (test/serve/config.test.ts); the pool takes the default.
    expect(threadPoolSize({ HASH_CONCURRENCY: 'many' })).toBe(defaultHashConcurrency());
    expect(threadPoolSize({ HASH_CONCURRENCY: '2', UV_THREADPOOL_SIZE: '6' })).toBe(6);
    expect(threadPoolSize({ HASH_CONCURRENCY: '2', UV_THREADPOOL_SIZE: 'lots' })).toBe(2);
  });
});

describe('V8 young generation', () => {
  /** Size of V8's new space after a process retains ~40 MiB of small objects, with or without the launcher's settings. */
  async function newSpaceMiBAfterAllocating(prepare: boolean): Promise<number> {
    const launcher = JSON.stringify(path.join(PROJECT_ROOT, 'dist/cli/launch.cjs'));
    const script = `
      ${prepare ? `require(${launcher}).prepareProcess();` : ''}
      const kept = [];
      for (let i = 0; i < 400000; i++) kept.push({ i, text: 'entry ' + i, list: [i, i + 1] });
      const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      process.stdout.write(String(space.space_size / 1048576));`;
    const { stdout } = await execa('node', ['-e', script]);
    return Number(stdout);
  }

  it('stays at its initial size (without the launcher it doubles, to 8 MiB and more, under the same allocations)', async () => {
    const [kept, grown] = await Promise.all([newSpaceMiBAfterAllocating(true), newSpaceMiBAfterAllocating(false)]);
    expect(kept).toBeLessThanOrEqual(2);
    expect(grown).toBeGreaterThanOrEqual(8);
  });
});
