// What bin/timetrack.cjs sets before the application loads: libuv's thread pool sized to the hashing
// bound, from the same settings the command reads, and one kept process.nextTick entry. And what the
// V8 flags on the systemd unit's ExecStart (config/timetrack.service) do: V8's young generation kept
// at its initial size.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultHashConcurrency } from '../../src/config/index.js';
import { BIN, PROJECT_ROOT } from '../support/cli.js';
import { makeTempDir } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';

const launcher = createRequire(import.meta.url)(BIN) as { threadPoolSize: (settings: Record<string, string>) => number };
const { threadPoolSize } = launcher;

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

/** Threads of a serve process; libuv starts its whole pool with serve's warm-up hash, before it listens. */
async function threadsOfServe(env: Record<string, string>, args: string[] = []): Promise<number> {
  const server = await startServer(path.join(makeTempDir(), 'timetrack.db'), env, args);
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

  it('reads HASH_CONCURRENCY from the --env-file too, as the command does', async () => {
    const envFile = path.join(makeTempDir(), 'timetrack.env');
    fs.writeFileSync(envFile, 'HASH_CONCURRENCY=3\n');
    const [one, threeFromFile] = await Promise.all([threadsOfServe({ HASH_CONCURRENCY: '1' }), threadsOfServe({}, ['--env-file', envFile])]);
    expect(threeFromFile - one).toBe(2);
  });

  it('follows the same HASH_CONCURRENCY rule as the configuration, and never fails on a bad value', () => {
    expect(threadPoolSize({ HASH_CONCURRENCY: '3' })).toBe(3);
    expect(threadPoolSize({})).toBe(defaultHashConcurrency());
    expect(threadPoolSize({ HASH_CONCURRENCY: ' ' })).toBe(defaultHashConcurrency());
    // The command itself reports the bad value (test/serve/config.process.test.ts); the pool takes the default.
    expect(threadPoolSize({ HASH_CONCURRENCY: 'many' })).toBe(defaultHashConcurrency());
    expect(threadPoolSize({ HASH_CONCURRENCY: '65' })).toBe(defaultHashConcurrency());
    expect(threadPoolSize({ HASH_CONCURRENCY: '2', UV_THREADPOOL_SIZE: '6' })).toBe(6);
    expect(threadPoolSize({ HASH_CONCURRENCY: '2', UV_THREADPOOL_SIZE: 'lots' })).toBe(2);
  });
});

describe('V8 young generation under the systemd unit', () => {
  /** The node flags of the unit's ExecStart, between the node binary and bin/timetrack.cjs. */
  /** The node flags of the unit's documented ExecStart for a small server (a comment beside the default one). */
  function unitNodeFlags(): string[] {
    const unit = fs.readFileSync(path.join(PROJECT_ROOT, 'config/timetrack.service'), 'utf8');
    const execStart = /^# ExecStart=(\S*node .*)$/m.exec(unit)?.[1]?.split(/\s+/) ?? [];
    return execStart.slice(
      1,
      execStart.findIndex((word) => word.endsWith('bin/timetrack.cjs')),
    );
  }

  /** Size of V8's new space after a process retains ~40 MiB of small objects, with the given flags. */
  async function newSpaceMiBAfterAllocating(flags: string[]): Promise<number> {
    const script = `
      const kept = [];
      for (let i = 0; i < 400000; i++) kept.push({ i, text: 'entry ' + i, list: [i, i + 1] });
      const space = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      process.stdout.write(String(space.space_size / 1048576));`;
    const { stdout } = await execa('node', [...flags, '-e', script]);
    return Number(stdout);
  }

  it('stays at its initial size (without the flags it doubles, to 8 MiB and more, under the same allocations)', async () => {
    const flags = unitNodeFlags();
    expect(flags).toContain('--semi-space-growth-factor=1');
    const [kept, grown] = await Promise.all([newSpaceMiBAfterAllocating(flags), newSpaceMiBAfterAllocating([])]);
    expect(kept).toBeLessThanOrEqual(2);
    expect(grown).toBeGreaterThanOrEqual(8);
  });
});

describe("process.nextTick's fast path", () => {
  // V8 remembers, at each key of the object literal Node builds a nextTick entry with, the hidden class
  // it met there; meeting a second one turns that key to the generic path for good. The hidden class
  // is held weakly, so a full collection with nothing queued frees it (bin/timetrack.cjs, docs/decisions/0001-process-nexttick-entry.md).
  // V8's own %DebugPrint shows the state of each key ("MONOMORPHIC": one hidden class, the fast path).
  const PROBE = `
    const print = new Function('value', '%DebugPrint(value)');
    const burst = () => { for (let i = 0; i < 300; i++) process.nextTick(() => {}); };
    // Several hundred entries, then a full collection from a timer (nothing queued), then more entries.
    globalThis.nextTickProbe = (then) => {
      burst();
      setTimeout(() => {
        globalThis.gc();
        setTimeout(() => {
          burst();
          setTimeout(() => {
            // V8 prints through C's stdio, which stops for good at the first EAGAIN of a non-blocking
            // pipe (a serve process's stdout under execa, read slower than written): make it block.
            process.stdout._handle?.setBlocking?.(true);
            print(process.nextTick);
            then();
          }, 10);
        }, 10);
      }, 10);
    };`;

  /** The state V8 recorded at each key of nextTick's entry literal, from %DebugPrint's output. */
  function literalKeyStates(output: string): string[] {
    return [...output.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1] ?? '');
  }

  function writeProbe(extra: string): string {
    const file = path.join(makeTempDir(), 'next-tick-probe.cjs');
    fs.writeFileSync(file, `${PROBE}\n${extra}\n`);
    return file;
  }

  it('keeps its one hidden class through a full collection when the launcher kept an entry (without it, V8 gives the fast path up)', async ({ skip }) => {
    const probe = writeProbe(`
      if (process.argv[2] === 'keep') require(${JSON.stringify(BIN)}).keepNextTickEntry();
      globalThis.nextTickProbe(() => {});`);
    const run = (mode: string) => execa('node', ['--expose-gc', '--allow-natives-syntax', probe, mode]).then(({ stdout }) => literalKeyStates(stdout));
    const [kept, unkept] = await Promise.all([run('keep'), run('none')]);
    // The literal has four keys: two symbols, callback and args.
    expect(kept).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
    if (!unkept.includes('MEGAMORPHIC')) skip(`this Node (${process.version}) keeps nextTick's fast path through a full collection by itself`);
    expect(unkept).toContain('MEGAMORPHIC');
  });

  it('stays on the fast path in a serve process that has started, answered requests and collected', async ({ skip }) => {
    // The launcher keeps the entry on Node 20 only (docs/decisions/0001-process-nexttick-entry.md).
    if (process.versions.node.split('.')[0] !== '20') skip(`the launcher keeps no entry on Node ${process.version}`);
    // On SIGUSR2 the probe collects, prints, and stops the server as SIGTERM does.
    const probe = writeProbe(`process.on('SIGUSR2', () => globalThis.nextTickProbe(() => process.kill(process.pid, 'SIGTERM')));`);
    const server = await startServer(path.join(makeTempDir(), 'timetrack.db'), {}, [], ['--expose-gc', '--allow-natives-syntax', '--require', probe]);
    running.push(server); // stopped after the test if it fails before the probe stops it
    for (let i = 0; i < 50; i++) expect((await fetch(`${server.baseUrl}/api/no-such-route`)).status).toBe(404);
    server.process.kill('SIGUSR2');
    expect((await server.process).exitCode).toBe(0);
    expect(literalKeyStates(server.output())).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });
});
