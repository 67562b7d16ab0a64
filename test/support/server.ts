// Starts a real `timetrack serve` process on a free port and reads its address from the log.
import { execa, type ResultPromise } from 'execa';
import { BIN, cleanEnv } from './cli.js';
import { forEngine } from './database.js';

export interface RunningServer {
  baseUrl: string;
  process: ResultPromise;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<{ exitCode?: number }>;
}

export async function startServer(dbPath: string, env: Record<string, string> = {}, args: string[] = []): Promise<RunningServer> {
  const engine = forEngine(['serve', '--port', '0', '--db', dbPath, ...args], { LOG_LEVEL: 'info', RATE_LIMIT_AUTH: '0', ...env });
  const child = execa('node', [BIN, ...engine.args], {
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
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening:\n${output}`));
    });
  });
  return {
    baseUrl,
    process: child,
    output: () => output,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      child.kill(signal);
      const result = await child;
      return { exitCode: result.exitCode };
    },
  };
}
