// Starts a real `timetrack serve` process on a free port and reads its address from the log.
import net from 'node:net';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll } from 'vitest';
import { makeTempDir } from './app.js';
import { BIN, cleanEnv } from './cli.js';
import { forEngine } from './database.js';

export interface RunningServer {
  baseUrl: string;
  process: ResultPromise;
  output: () => string;
  /**
   * How the process ended when it ended on its own (not by `stop` or a signal sent through `process`),
   * waiting up to `waitMs` for its end: its exit code or signal and everything it wrote; undefined
   * while it runs or after a stop.
   */
  died: (waitMs?: number) => Promise<string | undefined>;
  stop: (signal?: NodeJS.Signals) => Promise<{ exitCode?: number }>;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for a server whose log level hides the "listening" line). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startServer(dbPath: string, env: Record<string, string> = {}, args: string[] = [], nodeFlags: string[] = []): Promise<RunningServer> {
  // Above info the "Server listening" line is not written: listen on a chosen port and ask health instead.
  const quiet = env.LOG_LEVEL !== undefined && !['info', 'debug', 'trace'].includes(env.LOG_LEVEL);
  const port = quiet ? await freePort() : 0;
  const engine = forEngine(['serve', '--port', String(port), '--db', dbPath, ...args], {
    LOG_LEVEL: 'info',
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_EXPORT: '0',
    RATE_LIMIT_STATS: '0',
    ...env,
  });
  const child = execa('node', [...nodeFlags, BIN, ...engine.args], {
    env: cleanEnv(engine.env),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    all: true,
    // A graceful stop finishes the requests in flight first; on a busy machine that can take longer
    // than execa's default of 5 s before SIGKILL, which would look like dropped connections.
    forceKillAfterDelay: 30_000,
  });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    if (quiet) {
      const poll = async (): Promise<void> => {
        const url = `http://127.0.0.1:${port}`;
        const up = await fetch(`${url}/api/health`).then(
          (response) => response.ok,
          () => false,
        );
        if (up) {
          clearTimeout(timer);
          resolve(url);
        } else if (child.exitCode === null) setTimeout(() => void poll(), 100);
      };
      void poll();
    }
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void child.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening:\n${output}`));
    });
  });
  // A process that ends on its own while a test still uses it says why, on the test's stderr and in
  // `died()` (which `call` adds to a refused connection): a crash is then never a bare ECONNREFUSED.
  let died: string | undefined;
  const ended = child.then((result) => {
    if (child.killed) return;
    died = `serve (pid ${child.pid}) ended on its own: ${result.signal ? `signal ${result.signal}` : `exit code ${result.exitCode}`}; its output:\n${output}`;
    if (result.exitCode !== 0) process.stderr.write(`${died}\n`);
  });
  return {
    baseUrl,
    process: child,
    output: () => output,
    died: async (waitMs = 0) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
      return died;
    },
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      child.kill(signal);
      const result = await child;
      return { exitCode: result.exitCode };
    },
  };
}

export interface SharedServer {
  server: RunningServer;
  dbPath: string;
}

/**
 * One `serve` (with these settings, on a database of its own) for the cases of a file or a `describe`
 * that need no process, setting or database of their own (docs/testing.md, "How fast"): started by the
 * first case that asks for it, stopped after the last. Call it where `afterAll` may be called (a
 * file's top level or a `describe` body); each case then uses accounts of its own (`uniqueEmail`).
 */
export function sharedServer(env: Record<string, string> | (() => Record<string, string>) = {}, args: string[] = []): () => Promise<SharedServer> {
  let started: Promise<SharedServer> | undefined;
  afterAll(async () => {
    const running = await started?.catch(() => undefined);
    if (running) expect0((await running.server.stop()).exitCode);
  });
  return () => {
    started ??= (async () => {
      const dbPath = path.join(makeTempDir(), 'timetrack.db');
      return { server: await startServer(dbPath, typeof env === 'function' ? env() : env, args), dbPath };
    })();
    return started;
  };
}

/** A shared server stops as one that ran alone: exit code 0. */
function expect0(exitCode: number | undefined): void {
  if (exitCode !== 0) throw new Error(`the shared server exited with ${exitCode}`);
}

let emails = 0;

/** An e-mail address no other case of this worker uses (`ann-3-12345@example.com`), for a case's own account on a shared server. */
export function uniqueEmail(name = 'ann'): string {
  emails += 1;
  return `${name}-${emails}-${process.pid}@example.com`;
}

/** One request to a running server: its status, headers and body text (JSON in and a bearer token, when given). */
export async function call(
  server: Pick<RunningServer, 'baseUrl'> & Partial<Pick<RunningServer, 'died'>>,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
) {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(async (error: unknown) => {
    throw await withDeath(error, server);
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * A request that failed: when its server has died (a refused connection comes a moment before the
 * process's end is seen, so this waits up to 2 s for it), the error says how it ended and what it wrote.
 */
export async function withDeath(error: unknown, server: Partial<Pick<RunningServer, 'died'>>): Promise<unknown> {
  const code = ((error as { cause?: { code?: unknown } } | null)?.cause?.code ?? '') as string;
  const died = await server.died?.(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(code) ? 2_000 : 0);
  return died === undefined ? error : new Error(`${error instanceof Error ? error.message : String(error)}: ${died}`, { cause: error });
}

/** `call`, with the body parsed as JSON (undefined when empty). */
export async function callJson(
  server: Pick<RunningServer, 'baseUrl'>,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: any }> {
  const { status, text } = await call(server, method, url, body, token);
  return { status, body: text ? JSON.parse(text) : undefined };
}
