#!/usr/bin/env node
// The timetrack executable. `npm install` (prepare) bundles the CLI into dist/cli: one file loads in
// a fraction of the time of hundreds of modules. This file is CommonJS so that it runs before anything
// starts libuv's thread pool (an ES module entry is itself read through the pool, which would start it
// at its default size): it sizes the pool first, keeps one process.nextTick entry (below), then loads
// the bundle.
'use strict';
const { createHook } = require('node:async_hooks');
const { existsSync, readFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { parseEnv } = require('node:util');

/** The value of the global `--env-file <path>` (or `--env-file=<path>`) option, as the command will read it. */
function envFileArgument(argv) {
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--') return undefined;
    if (argv[i] === '--env-file') return argv[i + 1];
    if (argv[i].startsWith('--env-file=')) return argv[i].slice('--env-file='.length);
  }
  return undefined;
}

/** The settings the command will read: the environment over the --env-file (src/cli/command-context.ts). */
function settingsOf(argv, env) {
  const file = envFileArgument(argv);
  if (!file) return env;
  try {
    return { ...parseEnv(readFileSync(file, 'utf8')), ...env };
  } catch {
    return env; // the command reports an unreadable file itself, as one line
  }
}

/**
 * The size of libuv's thread pool, where argon2 runs: as many threads as hashes may run at once
 * (HASH_CONCURRENCY, read as src/config/ reads it). glibc gives each thread its own malloc arena
 * and keeps a freed 19 MiB argon2 block in it, so with libuv's default of four threads an idle
 * server held up to four blocks after a few logins. An operator's own UV_THREADPOOL_SIZE wins; a
 * bad HASH_CONCURRENCY gets the default here and is reported by the command itself.
 */
function threadPoolSize(settings) {
  const chosen = (settings.UV_THREADPOOL_SIZE ?? '').trim();
  if (/^\d+$/.test(chosen) && Number(chosen) > 0) return Number(chosen);
  const fallback = Math.max(1, os.availableParallelism() - 1);
  const raw = (settings.HASH_CONCURRENCY ?? '').trim();
  if (!/^\d+$/.test(raw)) return fallback;
  const value = Number(raw);
  return value >= 1 && value <= 64 ? value : fallback;
}

/**
 * Keeps one of process.nextTick's queue entries for the life of the process, so that V8 never frees
 * the hidden class those entries share. Node builds each entry with an object literal that has two
 * symbol keys; V8 remembers the hidden class it met at each key of that literal and, the first time
 * it meets another one, gives up the fast path for good: from then on every nextTick (Node's HTTP
 * server makes several per request) stores the literal's keys through V8's generic path. V8 holds
 * that hidden class only weakly, so a full garbage collection at a moment when no callback is queued
 * frees it and the next nextTick makes a new one. Start-up makes such collections (loading the bundle,
 * compiling the schemas), so without this entry serve answered each request through the slow path
 * (docs/decisions/0001-process-nexttick-entry.md). The entry is caught with an async hook
 * enabled around one nextTick and disabled at once; it holds an empty function and two numbers.
 */
function keepNextTickEntry() {
  let entry;
  const hook = createHook({
    init(asyncId, type, triggerAsyncId, resource) {
      if (type === 'TickObject' && entry === undefined) entry = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
  keptNextTickEntries.push(entry);
  return entry;
}

/**
 * What keepNextTickEntry caught. The function is exported and this module stays in require's cache,
 * so the array lives as long as the process.
 */
const keptNextTickEntries = [];

/**
 * Whether this process keeps the entry: only on the Node major its gain was measured on, and not when
 * the bench measures serve without it beside serve with it (docs/decisions/0001-process-nexttick-entry.md).
 */
function keepsNextTickEntry(nodeVersion, env) {
  return nodeVersion.split('.')[0] === '20' && env.TIMETRACK_BENCH_WITHOUT_TICK_ENTRY !== '1';
}

// Exported for their tests (test/serve/process-setup.process.test.ts).
module.exports = { threadPoolSize, keepNextTickEntry, keepsNextTickEntry };

if (require.main === module) {
  const bundle = path.join(__dirname, '../dist/cli/main.js');
  if (!existsSync(bundle)) {
    process.stderr.write('timetrack: dist/ is missing; run `npm install` (or `npm run build`) in the project folder\n');
    process.exit(1);
  }
  process.env.UV_THREADPOOL_SIZE = String(threadPoolSize(settingsOf(process.argv, process.env)));
  if (keepsNextTickEntry(process.versions.node, process.env)) keepNextTickEntry();
  import(pathToFileURL(bundle).href)
    .then(({ main }) => main(process.argv))
    .then((code) => {
      process.exitCode = code;
    });
}
