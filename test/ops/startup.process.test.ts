// What `serve` says at start, from a real process: one line with version, database path, secret
// source and mode; on a terminal, colours unless NO_COLOR is set.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../support/cli.js';
import { tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { freePort, startServer, type RunningServer } from '../support/server.js';
import { databaseLine, forEngineCommand, onPostgres } from '../support/database.js';

async function untilLogged(server: RunningServer, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!server.output().includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

const SECRET = 'a signing secret from the environment, long enough';

describe('serve at start', () => {
  it('logs version, database path, secret source and mode in one line', async () => {
    const db = tempDb();
    const server = await startServer(db, { JWT_SECRET: SECRET });
    await untilLogged(server, 'timetrack started');
    await server.stop();
    const started = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"timetrack started"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const where = databaseLine(db).slice('database: '.length);
    expect(started).toEqual([
      expect.objectContaining({
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        engine: onPostgres ? 'postgres' : 'sqlite',
        db: where,
        secret_source: 'environment (JWT_SECRET)',
        mode: 'production',
      }),
    ]);
    // The generated secret file exists on SQLite only (PostgreSQL requires JWT_SECRET).
    if (onPostgres) return;
    const withFile = await startServer(db);
    await untilLogged(withFile, 'timetrack started');
    await withFile.stop();
    expect(withFile.output()).toContain(`"secret_source":"file ${db}.jwt-secret"`);
  });

  it('logs that line at every LOG_LEVEL, warn and error included', async () => {
    const db = tempDb();
    for (const level of ['warn', 'error']) {
      const server = await startServer(db, { JWT_SECRET: SECRET, LOG_LEVEL: level });
      await untilLogged(server, 'timetrack started');
      await server.stop();
      expect(server.output()).toMatch(/"msg":"timetrack started"/);
      expect(server.output()).not.toMatch(/"msg":"Server listening/);
    }
  });

  it.skipIf(onPostgres)('colours its lines on a terminal, and not with NO_COLOR (the engine plays no part: SQLite only)', async () => {
    const db = tempDb();
    await cliInProcess(db, ['migrate']);
    const run = async (env: Record<string, string>) => {
      // Stopped once it is healthy (not after a fixed sleep: a loaded machine starts it slower), asked
      // by one node process that polls, not one process per attempt.
      const port = await freePort();
      const untilHealthy = `const ask = () => fetch('http://127.0.0.1:${port}/api/health').then((r) => (r.ok ? process.exit(0) : setTimeout(ask, 100)), () => setTimeout(ask, 100)); ask();`;
      const engine = forEngineCommand(`node '${BIN}' --db '${db}' serve --port ${port} & pid=$!; node -e "${untilHealthy}"; kill $pid; wait $pid`, {
        LOG_LEVEL: 'info',
        ...env,
      });
      const command = engine.command;
      const result = await execa('script', ['-qfec', command, '/dev/null'], {
        env: cleanEnv(engine.env),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        timeout: 60_000,
      });
      return String(result.stdout);
    };
    const coloured = await run({});
    expect(coloured).toMatch(/timetrack started/);
    expect(coloured).toMatch(/\x1b\[\d+m/);
    const plain = await run({ NO_COLOR: '1' });
    expect(plain).toMatch(/timetrack started/);
    expect(plain).not.toMatch(/\x1b\[\d+m/);
  });
});
