// Runs the built CLI (dist/cli/main.js, the bundle bin/timetrack.cjs loads) inside the test worker,
// for tests that use a command only to set up or to read data: a node process less per run (0.12–0.2 s
// of CPU; docs/testing.md, "How fast"). Where the process is the subject (its exit, signals, a closed
// pipe, the env file it finds, locks, `serve`, migrations, a terminal), tests run the binary: cli() in
// test/support/cli-accounts.ts.
//
// The command's code reads process.env, process.stdout, process.stderr and process.stdin. While a run
// is under way, each of those is replaced by a view that answers, inside the run's own asynchronous
// context (AsyncLocalStorage), with the run's clean environment and its own streams, and everywhere else
// with the worker's own: so the test's code around it, and runs side by side, see nothing of each other.
// When no run is under way the worker's own objects are back in place.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { BIN, cleanEnv, PROJECT_ROOT } from './cli.js';
import { forEngine } from './database.js';

interface Run {
  env: Record<string, string>;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

export interface InProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const runs = new AsyncLocalStorage<Run>();
/** Set inside a run of refusedServeInProcess: there a socket's listen throws. */
const serveRuns = new AsyncLocalStorage<{ listened: boolean }>();
const STREAMS = ['stdin', 'stdout', 'stderr'] as const;

/** Settings that act on the node process itself: a run with one of them needs a process of its own. */
const PROCESS_SETTINGS = ['UV_THREADPOOL_SIZE', 'MALLOC_MMAP_THRESHOLD_', 'NODE_OPTIONS', 'TZ'];

const { threadPoolSize } = createRequire(import.meta.url)(BIN) as { threadPoolSize: (settings: Record<string, string>) => number };

let bundle: Promise<{ main: (argv: string[]) => Promise<number> }> | undefined;
function loadBundle() {
  bundle ??= import(pathToFileURL(path.join(PROJECT_ROOT, 'dist/cli/main.js')).href);
  return bundle;
}

let active = 0;
let restore: (() => void) | undefined;

/** Puts the views in place for the first run under way (see the top of this file). */
function installViews(): void {
  if (active++ > 0) return;
  const ownEnv = process.env;
  const envOf = () => runs.getStore()?.env ?? ownEnv;
  process.env = new Proxy(ownEnv, {
    get: (_target, name) => Reflect.get(envOf(), name),
    set: (_target, name, value) => Reflect.set(envOf(), name, runs.getStore() ? String(value) : value),
    has: (_target, name) => Reflect.has(envOf(), name),
    deleteProperty: (_target, name) => Reflect.deleteProperty(envOf(), name),
    ownKeys: () => Reflect.ownKeys(envOf()),
    getOwnPropertyDescriptor: (_target, name) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(envOf(), name);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  const descriptors = STREAMS.map((name) => [name, Object.getOwnPropertyDescriptor(process, name)!] as const);
  for (const [name] of descriptors) {
    const own = process[name];
    Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => runs.getStore()?.[name] ?? own });
  }
  restore = () => {
    process.env = ownEnv;
    for (const [name, descriptor] of descriptors) Object.defineProperty(process, name, descriptor);
  };
}

function removeViews(): void {
  if (--active === 0) restore?.();
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
      done();
    },
  });
  // As execa reports a child's output: text, without its final newline.
  return {
    stream,
    text: () =>
      Buffer.concat(chunks)
        .toString('utf8')
        .replace(/\r?\n$/, ''),
  };
}

/**
 * Runs `timetrack <args>` in this process with the environment runCli gives the binary (cleanEnv, the
 * engine's settings, the thread-pool size bin/timetrack.cjs sets): its exit code, stdout and stderr.
 * `input` is its standard input (none: an empty one). Not for `serve` (but see refusedServeInProcess),
 * an import from `-` (it reads file descriptor 0 itself), or a setting that acts on the process.
 */
export async function runCliInProcess(givenArgs: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<InProcessResult> {
  const { args, env } = forEngine(givenArgs, options.env ?? {});
  const clean = cleanEnv(env);
  // `user import -` and `entries import -` read file descriptor 0 itself, which no view can stand for.
  const readsDescriptor0 = args.includes('import') && args.includes('-');
  if (args.includes('serve') || readsDescriptor0) throw new Error(`runCliInProcess: timetrack ${args.join(' ')} needs a process of its own; use cli()`);
  return runInWorker(args, clean, options.input);
}

/**
 * A start of `serve` that its settings refuse, run in this process through the bundle's `main()` (the
 * code bin/timetrack.cjs runs): its exit code, stdout and stderr, as runCli would give them, without
 * a node process, the bundle's loading and a lock file's process (docs/testing.md, "How fast"). For a
 * case about a refusal's rule; whether the binary exits with it is a binary test's (cli()). Every
 * attempt of the run to listen on a socket throws, and the call then rejects: a setting that is not
 * refused never starts a server in the worker.
 */
export async function refusedServeInProcess(givenArgs: string[], options: { env?: Record<string, string> } = {}): Promise<InProcessResult> {
  const { args, env } = forEngine(givenArgs, options.env ?? {});
  if (!args.includes('serve')) throw new Error(`refusedServeInProcess: timetrack ${args.join(' ')} is not serve`);
  const attempt = { listened: false };
  guardListen(+1);
  try {
    const result = await serveRuns.run(attempt, () => runInWorker(args, cleanEnv(env)));
    if (attempt.listened) throw new Error(`refusedServeInProcess: serve accepted its settings and was about to listen: ${result.stderr}`);
    return result;
  } finally {
    guardListen(-1);
  }
}

let guards = 0;
let ownListen: typeof net.Server.prototype.listen | undefined;

/** While a refusedServeInProcess run is under way, a listen inside one throws (runs side by side share the guard). */
function guardListen(step: 1 | -1): void {
  guards += step;
  if (step === 1 && guards === 1) {
    const listen = (ownListen = net.Server.prototype.listen);
    net.Server.prototype.listen = function guarded(this: net.Server, ...rest: unknown[]) {
      const attempt = serveRuns.getStore();
      if (!attempt) return (listen as (...all: unknown[]) => net.Server).apply(this, rest);
      attempt.listened = true;
      throw new Error('refusedServeInProcess: serve was about to listen');
    } as typeof listen;
  }
  if (step === -1 && guards === 0 && ownListen) net.Server.prototype.listen = ownListen;
}

async function runInWorker(args: string[], clean: Record<string, string>, input?: string): Promise<InProcessResult> {
  const processSetting = PROCESS_SETTINGS.find((name) => name in clean || (active === 0 && name in process.env));
  if (processSetting !== undefined) throw new Error(`runCliInProcess: timetrack ${args.join(' ')} ${processSetting} needs a process of its own; use cli()`);
  const { main } = await loadBundle();
  const stdout = collector();
  const stderr = collector();
  const run: Run = {
    env: { ...clean, UV_THREADPOOL_SIZE: String(threadPoolSize(clean)) },
    stdin: Readable.from(input === undefined ? [] : [Buffer.from(input)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
  };
  installViews();
  try {
    const exitCode = await runs.run(run, () => main([process.execPath, BIN, ...args]));
    return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    removeViews();
  }
}

/** runCliInProcess with `--db` first, as cli() in test/support/cli-accounts.ts gives it. */
export function cliInProcess(db: string, args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<InProcessResult> {
  return runCliInProcess(['--db', db, ...args], options);
}
